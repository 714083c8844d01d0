; Symbols for json: to be written.
