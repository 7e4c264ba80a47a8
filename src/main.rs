//! The `limina` binary: parse arguments, run, exit with 0 (ok), 1 (failure) or 2 (usage).

fn main() {
    // A panic is a bug in limina, never the user's fault: say so in one line (set
    // RUST_BACKTRACE=1 for the details) instead of dumping a trace at them.
    if std::env::var_os("RUST_BACKTRACE").is_none() {
        std::panic::set_hook(Box::new(|info| {
            eprintln!("error: internal error (a bug in limina, please report it): {info}");
        }));
    }
    std::process::exit(limina::cli::main());
}
