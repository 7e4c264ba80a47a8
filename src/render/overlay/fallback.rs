//! Characters the bundled font lacks. DejaVu Sans has no CJK glyphs, and embedding a CJK font
//! would add megabytes to the binary, so Chinese, Japanese and Korean text draws with a system
//! font found at run time through the font database (Debian: `fonts-noto-cjk`), looked up once
//! per process and only when some text needs it. A character no available font covers is drawn
//! as U+FFFD (�, the replacement character: it reads as "a character is missing", where
//! DejaVu's empty .notdef box reads as a rendering bug), and the first such CJK character logs
//! one warning naming the package to install.
//!
//! `LIMINA_CJK_FONT` overrides the lookup: a font file path, or `none` for no CJK font (tests
//! use it to see the missing-font path on a machine that has one).

use std::path::PathBuf;
use std::sync::OnceLock;

use cosmic_text::fontdb;
use cosmic_text::skrifa::{FontRef, MetadataProvider};

/// The Debian package with the CJK font the warning names.
pub(crate) const CJK_PACKAGE: &str = "fonts-noto-cjk";

/// What a character no font covers is drawn as.
pub(crate) const REPLACEMENT: char = '\u{FFFD}';

/// Families tried in order: Noto CJK (Debian `fonts-noto-cjk`), its Adobe twin, then older
/// common fallbacks.
const FAMILIES: [&str; 8] = [
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "Noto Sans CJK TC",
    "Noto Sans CJK KR",
    "Source Han Sans",
    "Noto Sans JP",
    "Droid Sans Fallback",
    "WenQuanYi Zen Hei",
];

/// A CJK font on this machine: its file and the characters it covers (sorted).
#[derive(Debug)]
pub(crate) struct CjkFont {
    pub path: PathBuf,
    pub family: String,
    chars: Vec<u32>,
}

/// The characters `font` (face `index` of `data`) maps, sorted.
fn coverage(data: &[u8], index: u32) -> Vec<u32> {
    let Ok(font) = FontRef::from_index(data, index) else { return Vec::new() };
    let mut chars: Vec<u32> = font.charmap().mappings().map(|(c, _)| c).collect();
    chars.sort_unstable();
    chars.dedup();
    chars
}

/// The bundled font's characters.
pub(crate) fn bundled_covers(c: char) -> bool {
    static CHARS: OnceLock<Vec<u32>> = OnceLock::new();
    CHARS.get_or_init(|| coverage(super::text::FONT, 0)).binary_search(&u32::from(c)).is_ok()
}

/// The process's CJK font, found on first use (None: none installed, or `LIMINA_CJK_FONT=none`).
pub(crate) fn cjk_font() -> Option<&'static CjkFont> {
    static FONT: OnceLock<Option<CjkFont>> = OnceLock::new();
    FONT.get_or_init(|| {
        let font = find_cjk_font(std::env::var_os("LIMINA_CJK_FONT").map(PathBuf::from));
        match &font {
            Some(f) => tracing::debug!("CJK text draws with {} ({})", f.family, f.path.display()),
            None => tracing::warn!(
                "no CJK font found: Chinese, Japanese and Korean text draws as {REPLACEMENT} (install {CJK_PACKAGE}, e.g. apt-get install {CJK_PACKAGE})"
            ),
        }
        font
    })
    .as_ref()
}

/// Looks a CJK font up: in `wanted` (a file, or `none`) when given, else among the system fonts.
fn find_cjk_font(wanted: Option<PathBuf>) -> Option<CjkFont> {
    let mut db = fontdb::Database::new();
    match wanted {
        Some(path) if path.as_os_str() == "none" => return None,
        Some(path) => {
            if let Err(e) = db.load_font_file(&path) {
                tracing::warn!("LIMINA_CJK_FONT={}: {e}", path.display());
                return None;
            }
        }
        None => db.load_system_fonts(),
    }
    let candidates =
        FAMILIES.iter().filter_map(|name| db.query(&fontdb::Query { families: &[fontdb::Family::Name(name)], ..Default::default() }));
    // An explicit file need not be one of the named families: any face with a CJK ideograph.
    let any = db.faces().map(|f| f.id).collect::<Vec<_>>();
    candidates.chain(any).find_map(|id| {
        let face = db.face(id)?;
        let path = match &face.source {
            fontdb::Source::File(p) | fontdb::Source::SharedFile(p, _) => p.clone(),
            fontdb::Source::Binary(_) => return None,
        };
        let chars = db.with_face_data(id, coverage)?;
        // 日 (U+65E5): a font without it is no CJK font.
        chars.binary_search(&0x65E5).ok()?;
        let family = face.families.first().map(|(name, _)| name.clone()).unwrap_or_default();
        Some(CjkFont { path, family, chars })
    })
}

impl CjkFont {
    pub fn covers(&self, c: char) -> bool {
        self.chars.binary_search(&u32::from(c)).is_ok()
    }
}

/// Characters no font needs to draw: controls, spaces, joiners and variation selectors.
fn invisible(c: char) -> bool {
    c.is_control()
        || c.is_whitespace()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{206F}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0000}'..='\u{E01EF}')
}

/// Whether `c` needs a font beyond the bundled one.
pub(crate) fn needs_fallback(c: char) -> bool {
    !invisible(c) && !bundled_covers(c)
}

/// `text` as it can be drawn: every character neither the bundled font nor `cjk` covers becomes
/// U+FFFD. None when nothing changes (the common case allocates nothing).
pub(crate) fn drawable(text: &str, cjk: Option<&CjkFont>) -> Option<String> {
    let missing = |c: char| needs_fallback(c) && !cjk.is_some_and(|f| f.covers(c));
    if !text.chars().any(missing) {
        return None;
    }
    Some(text.chars().map(|c| if missing(c) { REPLACEMENT } else { c }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_cyrillic_and_controls_need_no_fallback_and_japanese_does() {
        for c in "Grüß dich! Привет!\n\t".chars() {
            assert!(!needs_fallback(c), "{c:?}");
        }
        assert!(bundled_covers(REPLACEMENT), "the replacement glyph itself is in the bundled font");
        for c in "こんにちは日本".chars() {
            assert!(needs_fallback(c), "{c:?}");
        }
    }

    #[test]
    fn without_a_cjk_font_missing_characters_become_the_replacement_glyph() {
        assert_eq!(drawable("plain text", None), None, "nothing to replace, nothing allocated");
        assert_eq!(drawable("Hi こんにちは!", None).as_deref(), Some("Hi \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}!"));
    }

    #[test]
    fn a_missing_or_refused_font_file_is_no_font() {
        assert!(find_cjk_font(Some("none".into())).is_none());
        assert!(find_cjk_font(Some("/nonexistent/font.ttc".into())).is_none());
        // A font without CJK ideographs is not taken for one.
        let dejavu = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts/DejaVuSans.ttf");
        assert!(find_cjk_font(Some(dejavu)).is_none());
    }
}
