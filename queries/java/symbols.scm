; Symbols for java: to be written.
