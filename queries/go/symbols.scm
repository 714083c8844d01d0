; Symbols for go: to be written.
