; JavaScript and JSX: the outline VS Code shows (tsserver navigation tree, VS Code conversion).
; inherits: _javascript, _ecma
