; TypeScript: the outline VS Code shows (tsserver navigation tree, VS Code conversion).
; inherits: _typescript, _ecma
