//! Runs the Luau suite in `tests/lua` through the same runner as `limina test`.

use limina::cli::test::run_tests;

#[test]
#[ignore = "slow: runs with the full suite (cargo test -- --include-ignored)"]
fn luau_suite_passes() {
    let mut out = Vec::new();
    let report = run_tests(&crate::root(), Some(&crate::root().join("scripts")), &[crate::root().join("tests/lua")], None, &mut out);
    let text = String::from_utf8_lossy(&out);
    assert!(report.passed >= 50, "expected the full suite to run:\n{text}");
    assert_eq!(report.failed, 0, "Luau failures:\n{text}");
    assert_eq!(text.lines().last(), Some(report.summary_line().as_str()));
}

#[test]
fn runner_reports_failures_with_file_line_expected_and_actual() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken_test.lua");
    std::fs::write(&file, "describe('d', function()\n  it('adds', function()\n    expect(1 + 1).toBe(3)\n  end)\n  it('passes', function() end)\n  xit('later', function() end)\nend)\n").unwrap();
    let mut out = Vec::new();
    let report = run_tests(&crate::root(), None, std::slice::from_ref(&file), None, &mut out);
    let text = String::from_utf8_lossy(&out);
    assert_eq!((report.passed, report.failed, report.skipped), (1, 1, 1), "{text}");
    assert!(text.contains("broken_test.lua:3: expected 3, got 2"), "{text}");
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed, 1 skipped"));

    let mut out = Vec::new();
    let filtered = run_tests(&crate::root(), None, &[file], Some("passes"), &mut out);
    assert_eq!((filtered.passed, filtered.failed), (1, 0), "{}", String::from_utf8_lossy(&out));
}

#[test]
fn a_file_that_fails_to_load_counts_as_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("syntax_test.lua"), "local x = = 1\n").unwrap();
    let mut out = Vec::new();
    let report = run_tests(&crate::root(), None, &[dir.path().to_path_buf()], None, &mut out);
    let text = String::from_utf8_lossy(&out);
    assert_eq!(report.failed, 1, "{text}");
    assert!(text.contains("syntax_test.lua:1: syntax error"), "{text}");
}
