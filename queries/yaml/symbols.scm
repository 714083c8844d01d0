; Symbols for yaml: to be written.
