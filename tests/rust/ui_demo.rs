//! The UI showcase demo places every element kind through the ui.* skills, world and screen
//! anchored, and its lifecycles run in sim time (the toast expires, the feed scrolls).

use limina::host::{Engine, EngineConfig, Output};

#[test]
fn the_ui_showcase_places_every_kind_and_its_toast_expires() {
    let e = Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap();
    e.run_file(&crate::root().join("demos/ui_showcase.lua")).unwrap();
    let kinds = |e: &Engine| {
        let mut k: Vec<&'static str> = e.world().ui.iter().map(|el| el.kind.as_str()).collect();
        k.sort();
        k
    };
    assert_eq!(kinds(&e), ["callout", "hudPanel", "label", "label", "speechBubble", "textBox", "thoughtBubble"]);
    let anchors: Vec<bool> = e.world().ui.iter().map(|el| matches!(el.spec.anchor, limina::world::ui::Anchor::World(_))).collect();
    assert!(anchors.contains(&true) && anchors.contains(&false), "world and screen anchored");
    e.step(360).unwrap();
    assert_eq!(e.world().ui.len(), 6, "the 4 s toast expired");
    let expired: Vec<String> = e
        .trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == "ui.expired")
        .map(|ev| ev.payload.json().get().to_string())
        .collect();
    assert_eq!(expired.len(), 1);
    assert!(expired[0].contains("ui_0007"), "{expired:?}");
    let hud = e.world().ui.get("ui_0006").unwrap().present(e.world().ui.tick).body();
    assert_eq!(hud.lines().count(), 5, "the feed keeps its newest 5 lines: {hud}");
}
