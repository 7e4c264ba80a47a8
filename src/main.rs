//! The `limina` binary: parse arguments, run, exit with 0 (ok), 1 (failure) or 2 (usage).

fn main() {
    std::process::exit(limina::cli::main());
}
