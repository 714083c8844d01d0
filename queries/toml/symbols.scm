; Symbols for toml: to be written.
