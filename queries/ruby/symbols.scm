; Symbols for ruby: to be written.
