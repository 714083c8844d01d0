; Symbols for csharp: to be written.
