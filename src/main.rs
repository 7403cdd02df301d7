use clap::Parser;
use gradle_flaky::cli::Cli;

/// Parses the command line, runs the command, and exits with its documented
/// code. Output to a closed pipe never panics: `gradle_flaky::output` drops
/// what cannot be written, so `… | head -1` ends with the command's own code.
fn main() {
    let cli = Cli::parse();
    let exit = match gradle_flaky::commands::run(cli) {
        Ok(exit) => exit,
        Err(err) => {
            gradle_flaky::output::tell("error: ", &err.to_string());
            err.exit()
        }
    };
    std::process::exit(exit.code());
}
