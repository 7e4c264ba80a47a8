//! The skill registry and the invoke pipeline with skills declared in tests.

use limina::host::{Engine, EngineConfig, Output};
use limina::skills::{ErrorCode, Skill, SkillRegistry};
use mlua::Table;
use serde_json::json;

fn engine() -> Engine {
    Engine::new(EngineConfig { output: Output::Silent, ..EngineConfig::new(crate::root()) }).unwrap()
}

fn def(engine: &Engine, src: &str) -> Table {
    engine.lua().load(src).eval::<Table>().unwrap()
}

const ECHO: &str = r#"
    local s = limina.schema
    return {
        name = "test.echo", version = "1.0.0", category = "system", description = "Echo the text back.",
        permissions = {},
        input = s.object({ text = s.string():min(1), times = s.integer():min(1):max(3):default(1) }),
        output = s.object({ text = s.string() }),
        handler = function(input) return { text = string.rep(input.text, input.times) } end,
    }"#;

#[test]
fn registry_operations_keep_order_refuse_duplicates_and_track_changes() {
    let e = engine();
    let mut reg = SkillRegistry::new();
    let make = |src: &str| Skill::from_table(e.lua(), &def(&e, src), "test").unwrap();
    assert_eq!(reg.size(), 0);
    reg.register(make(ECHO)).unwrap();
    reg.register(make(&ECHO.replace("test.echo", "test.other"))).unwrap();
    assert!(reg.has("test.echo") && reg.get("test.other").is_some());
    assert_eq!(reg.list().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["test.echo", "test.other"]);
    let generation = reg.generation();
    let tools = reg.tools();
    assert!(std::rc::Rc::ptr_eq(&tools, &reg.tools()), "the tool list is memoized");

    let err = reg.register(make(ECHO)).unwrap_err();
    assert!(err.to_string().contains("already registered"), "{err}");
    assert_eq!(reg.generation(), generation, "a refused register changes nothing");

    reg.replace(make(&ECHO.replace("Echo the text back.", "Echo, v2."))).unwrap();
    assert!(reg.generation() > generation);
    assert!(!std::rc::Rc::ptr_eq(&tools, &reg.tools()), "a change invalidates the memo");
    assert_eq!(reg.list().next().unwrap().description, "Echo, v2.", "replace keeps the listing position");

    reg.unregister("test.echo").unwrap();
    assert!(!reg.has("test.echo"));
    assert!(reg.unregister("test.echo").is_err());
    assert!(reg.replace(make(ECHO)).is_err(), "replace needs an existing skill");
    assert_eq!(reg.get("test.other").unwrap().name, "test.other", "the index survives removal");
    reg.clear();
    assert_eq!(reg.size(), 0);
    assert!(reg.tools().is_empty());
}

#[test]
fn registered_skills_run_through_the_pipeline_with_defaults_and_bounds() {
    let e = engine();
    e.register_skill(&def(&e, ECHO), "test").unwrap();
    let caller = e.script_caller().clone();
    let r = e.call(&caller, "test.echo", json!({"text": "ab"}));
    assert_eq!(r.result, Some(json!({"text": "ab"})), "{r:?}");
    let r = e.call(&caller, "test.echo", json!({"text": "ab", "times": 3}));
    assert_eq!(r.result, Some(json!({"text": "ababab"})));
    let r = e.call(&caller, "test.echo", json!({"text": "ab", "times": 4}));
    let error = r.error.unwrap();
    assert_eq!(error.code, ErrorCode::InvalidInput);
    assert!(error.message.contains("times: 4 is above the maximum of 3"), "{}", error.message);

    // Replacing swaps the handler for the next call; unregistering makes the name unknown.
    e.replace_skill(&def(&e, &ECHO.replace("string.rep(input.text, input.times)", "string.upper(input.text)")), "test").unwrap();
    assert_eq!(e.call(&caller, "test.echo", json!({"text": "ab"})).result, Some(json!({"text": "AB"})));
    e.unregister_skill("test.echo").unwrap();
    assert_eq!(e.call(&caller, "test.echo", json!({"text": "ab"})).error.unwrap().code, ErrorCode::NotFound);
}

#[test]
fn hooks_run_in_order_and_a_failing_before_hook_stops_the_handler() {
    let e = engine();
    let src = r#"
        local s = limina.schema
        ORDER = {}
        return {
            name = "test.hooked", version = "1.0.0", category = "system", description = "Records hook order.",
            permissions = {},
            input = s.object({ block = s.boolean():default(false) }),
            output = s.object({ ok = s.boolean() }),
            hooks = {
                before = function(input, ctx)
                    table.insert(ORDER, "before:" .. ctx.agentId)
                    if input.block then ctx.fail("forbidden", "blocked by the before hook") end
                end,
                after = function(result) table.insert(ORDER, "after:" .. tostring(result.ok)) end,
            },
            handler = function() table.insert(ORDER, "handler"); return { ok = true } end,
        }"#;
    e.register_skill(&def(&e, src), "test").unwrap();
    let caller = e.script_caller().clone();
    assert!(e.call(&caller, "test.hooked", json!({})).success);
    let order: Vec<String> = e.lua().load("return ORDER").eval().unwrap();
    assert_eq!(order, ["before:agt_script", "handler", "after:true"]);

    let r = e.call(&caller, "test.hooked", json!({"block": true}));
    let error = r.error.unwrap();
    assert_eq!((error.code, error.message.as_str()), (ErrorCode::Forbidden, "blocked by the before hook"));
    let order: Vec<String> = e.lua().load("return ORDER").eval().unwrap();
    assert_eq!(order.len(), 4, "the handler did not run: {order:?}");
}

#[test]
fn handler_errors_and_bad_outputs_are_handler_errors_naming_the_problem() {
    let e = engine();
    let caller = e.script_caller().clone();
    let throwing = ECHO
        .replace("return { text = string.rep(input.text, input.times) }", "local t = nil; return t.x")
        .replace("test.echo", "test.throws");
    e.register_skill(&def(&e, &throwing), "test").unwrap();
    let error = e.call(&caller, "test.throws", json!({"text": "a"})).error.unwrap();
    assert_eq!(error.code, ErrorCode::HandlerError);
    assert!(error.message.contains("attempt to index nil"), "{}", error.message);

    let wrong =
        ECHO.replace("return { text = string.rep(input.text, input.times) }", "return { text = 5 }").replace("test.echo", "test.wrong");
    e.register_skill(&def(&e, &wrong), "test").unwrap();
    let error = e.call(&caller, "test.wrong", json!({"text": "a"})).error.unwrap();
    assert_eq!(error.code, ErrorCode::HandlerError);
    assert!(error.message.contains("returned invalid output: text: expected a string, got 5"), "{}", error.message);
}

#[test]
fn bad_definitions_are_refused_with_the_reason() {
    let e = engine();
    let cases = [
        (ECHO.replace("category = \"system\",", "category = \"system\", colour = 1,"), "unknown field `colour`"),
        (ECHO.replace("version = \"1.0.0\"", "version = \"1.0\""), "not semver"),
        (ECHO.replace("permissions = {}", "permissions = { \"scene.admin\" }"), "unknown permission 'scene.admin'"),
        (ECHO.replace("s.string():min(1)", "s.string():min(1):default(nil):describe(5)"), "`description` must be a string"),
        (ECHO.replace("handler = function", "handler = 5, old = function"), "unknown field `old`"),
        (ECHO.replace("name = \"test.echo\"", "name = \"bad name!\""), "not a valid skill name"),
    ];
    for (src, expected) in cases {
        let err = e.register_skill(&def(&e, &src), "test").unwrap_err().to_string();
        assert!(err.contains(expected), "{err:?} should contain {expected:?}");
    }
    assert!(!e.registry().has("test.echo"));
}

/// A handler that tries everything a handler should not be able to do with what it is given:
/// change its caller's input, its `ctx` (for the next call), the shared permissions list, and
/// the result after returning it.
const VANDAL: &str = r#"
    local s = limina.schema
    KEPT = {}
    return {
        name = "test.vandal", version = "1.0.0", category = "system", description = "Changes what it is given.",
        permissions = {},
        input = s.object({ value = s.array(s.number()), name = s.string() }),
        output = s.object({ agent = s.string(), tick = s.number(), permissions = s.integer(), wrote = s.boolean(), list = s.array(s.number()) }),
        handler = function(input, ctx)
            local seen = { agent = ctx.agentId, tick = ctx.tick, permissions = #ctx.permissions, list = { table.unpack(input.value) } }
            seen.wrote = pcall(function() table.insert(ctx.permissions, "policy.govern") end)
            input.value[1] = 99; input.name = "changed"; input.extra = true
            ctx.agentId = "agt_evil"; ctx.tick = -1; ctx.permissions = {}
            table.insert(KEPT, seen)
            return seen
        end,
    }"#;

#[test]
fn a_handler_cannot_change_its_callers_tables_or_the_next_callers_ctx() {
    let e = engine();
    e.register_skill(&def(&e, VANDAL), "test").unwrap();
    let out: Vec<String> = e
        .run_source(
            r#"
            local input = { value = {1, 2, 3}, name = "orig" }
            local a = limina.call("test.vandal", input)
            assert(a.success, a.error and a.error.message)
            -- The caller's table is as it was, and what the trace recorded is what was validated.
            assert(input.value[1] == 1 and input.name == "orig" and input.extra == nil, "the caller's input changed")
            local b = limina.call("test.vandal", input)
            local guest = limina.session({ agentId = "agt_guest", sessionId = "ses_guest", profile = "player.limited" })
            local c = guest:call("test.vandal", input)
            -- The caller changing its result does not reach the table the handler returned.
            a.result.list[2] = 77
            local function show(r)
                local res = r.result
                return string.format("%s|%d|%s|%s", res.agent, res.permissions, tostring(res.wrote), table.concat(res.list, ","))
            end
            return { show(b), show(c), tostring(a.result.tick == limina.tick()) }
            "#,
            "test/vandal.lua",
        )
        .map(|v| e.lua().unpack::<Vec<String>>(v).unwrap())
        .unwrap();
    let script_perms = e.script_caller().permissions.names().len();
    let guest_perms = limina::policy::profile_permissions("player.limited").names().len();
    assert_eq!(
        out,
        [format!("agt_script|{script_perms}|false|1,2,3"), format!("agt_guest|{guest_perms}|false|1,2,3"), "true".to_string()],
        "every call sees its own caller's ctx, untouched by the calls before it"
    );
    let kept: Vec<f64> = e.lua().load("return KEPT[1].list").eval().unwrap();
    assert_eq!(kept, [1.0, 2.0, 3.0], "the caller got a copy of the result");
    let inputs: Vec<serde_json::Value> = e
        .trace()
        .durable()
        .map(Result::unwrap)
        .filter(|ev| &*ev.event_type == "skill.executed")
        .map(|ev| ev.payload_value()["input"].clone())
        .collect();
    assert_eq!(inputs, vec![json!({"value": [1, 2, 3], "name": "orig"}); 3]);
}

#[test]
fn calls_from_scripts_leave_a_chain_that_verifies_event_for_event() {
    let e = engine();
    e.register_skill(&def(&e, ECHO), "test").unwrap();
    e.run_source(
        r#"
        local id = limina.call("scene.createEntity", { shape = "box" }).result.entity
        for i = 1, 300 do
            assert(limina.call("ecs.updateComponent", { entity = id, component = "position", value = {i, 0, 0} }).success)
            assert(limina.call("test.echo", { text = "x" .. i }).success)
            assert(not limina.call("test.echo", { text = "" }).success)
        end
        "#,
        "test/chain.lua",
    )
    .unwrap();
    let trace = e.trace();
    let mut exported = Vec::new();
    let stats = trace.export(&mut exported).unwrap();
    assert_eq!(stats.events, trace.len() as u64);
    assert_eq!(limina::trace::verify_jsonl(&exported), Ok(trace.len()));
    // Every line is the event as the log holds it (ids included), in order.
    for (line, event) in exported.split(|b| *b == b'\n').zip(trace.durable().map(Result::unwrap)) {
        let parsed: serde_json::Value = serde_json::from_slice(line).unwrap();
        assert_eq!(parsed["id"], json!(event.id));
        assert_eq!(parsed["seq"], json!(event.seq));
    }
    // The tail is the newest events of the history, oldest first.
    let tail: Vec<u64> = trace.tail().map(|ev| ev.seq).collect();
    let expected: Vec<u64> = trace.durable().map(Result::unwrap).map(|ev| ev.seq).skip(trace.len().saturating_sub(tail.len())).collect();
    assert_eq!(tail, expected);
}
