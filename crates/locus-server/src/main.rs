//! `locus`: the context oracle's one binary. See `locus --help`.

mod cli;
mod commands;
mod index;
mod lsp;
mod mcp;
mod process;
mod proto;
mod state;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Not `stdout().lock()`: `locus lsp` writes to stdout from another thread, and would wait
    // forever for a lock held here.
    let code = match cli::run(&args, &mut std::io::stdout()) {
        Ok(()) => 0,
        Err(e) => {
            match e {
                // clap's messages are complete as they are ("error: …", a tip, the usage).
                commands::CliError::Parse(_) => eprintln!("{e}"),
                commands::CliError::ClosedOutput => {}
                _ => eprintln!("locus: {e}"),
            }
            e.exit_code()
        }
    };
    std::process::exit(code);
}
