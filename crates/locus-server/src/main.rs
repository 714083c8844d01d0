//! `locus`: the context oracle's one binary. See `locus --help`.

mod cli;
mod proto;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match cli::run(&args, &mut std::io::stdout().lock()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("locus: {e}");
            e.exit_code()
        }
    };
    std::process::exit(code);
}
