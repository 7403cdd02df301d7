//! Release binaries on Linux keep their line tables (a panic's backtrace names
//! files and lines) but compressed: DWARF shrinks about fourfold, and Rust's
//! backtrace reads zlib-compressed sections.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if release && linux {
        println!("cargo:rustc-link-arg-bins=-Wl,--compress-debug-sections=zlib");
    }
}
