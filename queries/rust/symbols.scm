; Symbols for rust: to be written.
