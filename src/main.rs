use clap::Parser;
use gradle_flaky::cli::Cli;

fn main() {
    let cli = Cli::parse();
    let exit = match gradle_flaky::commands::run(cli) {
        Ok(exit) => exit,
        Err(err) => {
            eprintln!("gradle-flaky: error: {err}");
            err.exit()
        }
    };
    std::process::exit(exit.code());
}
