; Symbols for cpp: to be written.
