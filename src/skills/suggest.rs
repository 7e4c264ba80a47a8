//! "Did you mean": the one close name to offer when a caller misspells a field, an enum value or
//! a skill name.
//!
//! A suggestion is made only when it is close enough to be the likely intent, since a wrong
//! guess costs an agent a wasted call: the same name in another case; the name with its
//! `category.` left off (`createEntity` for `scene.createEntity`); or a name within a small edit
//! distance (adjacent swaps count as one edit) that grows with the name's length: 1 edit up to 4
//! characters, 2 up to 8, 3 beyond. Ties go to the first candidate, so the answer is
//! deterministic. Runs only on a failed call; nothing here is hot.

/// Longest input that gets a suggestion.
const MAX_NAME: usize = 256;

/// The candidate `given` most likely meant, if one is close enough.
pub(crate) fn did_you_mean<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Names are short: a long input is no near miss, and the edit distance is quadratic in it
    // (a hostile 4 MiB "tool name" must not cost the engine seconds).
    if given.len() > MAX_NAME {
        return None;
    }
    let lower = given.to_lowercase();
    let length = given.chars().count();
    let budget = match length {
        0 => return None,
        1..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == given {
            continue;
        }
        let c = candidate.to_lowercase();
        // The distance is at least the difference in length.
        if c.chars().count().abs_diff(length) > budget && !c.ends_with(&lower) {
            continue;
        }
        let score = if c == lower || c.rsplit_once('.').is_some_and(|(_, tail)| tail == lower) {
            0
        } else {
            let d = edit_distance(&lower, &c);
            if d > budget {
                continue;
            }
            d
        };
        if best.is_none_or(|(b, _)| score < b) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Edits (insert, delete, substitute, swap two adjacent characters) from `a` to `b`: the
/// optimal-string-alignment distance.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the DP table: two back (for swaps), one back, and the one being filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            current[j] = (previous[j] + 1).min(current[j - 1] + 1).min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = current[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_inserts_deletes_substitutions_and_swaps() {
        assert_eq!(edit_distance("colour", "color"), 1);
        assert_eq!(edit_distance("sphre", "sphere"), 1);
        assert_eq!(edit_distance("shpere", "sphere"), 1, "an adjacent swap is one edit");
        assert_eq!(edit_distance("box", "cone"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn a_near_miss_is_suggested_and_a_far_one_is_not() {
        let shapes = ["box", "sphere", "capsule"];
        assert_eq!(did_you_mean("sphre", shapes), Some("sphere"));
        assert_eq!(did_you_mean("Sphere", shapes), Some("sphere"));
        assert_eq!(did_you_mean("capsul", shapes), Some("capsule"));
        assert_eq!(did_you_mean("cone", shapes), None);
        assert_eq!(did_you_mean("cube", shapes), None, "a short word gets one edit only");
        assert_eq!(did_you_mean("", shapes), None);
        let fields = ["color", "collider", "size", "position"];
        assert_eq!(did_you_mean("colour", fields), Some("color"));
        assert_eq!(did_you_mean("positon", fields), Some("position"));
        assert_eq!(did_you_mean("velocity", fields), None);
    }

    #[test]
    fn a_skill_name_without_its_category_or_slightly_misspelled_is_found() {
        let skills = ["scene.createEntity", "scene.destroyEntity", "three.setTransform"];
        assert_eq!(did_you_mean("createEntity", skills), Some("scene.createEntity"));
        assert_eq!(did_you_mean("scene.createEntty", skills), Some("scene.createEntity"));
        assert_eq!(did_you_mean("scene.createentity", skills), Some("scene.createEntity"));
        assert_eq!(did_you_mean("three.setTransfrom", skills), Some("three.setTransform"));
        assert_eq!(did_you_mean("scene.spawn", skills), None);
    }

    #[test]
    fn a_huge_input_gets_no_suggestion_and_costs_nothing() {
        assert_eq!(did_you_mean(&"x".repeat(4 << 20), ["scene.createEntity"]), None);
        assert_eq!(did_you_mean(&format!("{}a", "scene.createEntity"), ["scene.createEntity"]), Some("scene.createEntity"));
    }

    #[test]
    fn ties_go_to_the_first_candidate() {
        assert_eq!(did_you_mean("bax", ["bat", "bag"]), Some("bat"));
    }
}
