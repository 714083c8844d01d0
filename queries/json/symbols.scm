; Symbols for JSON.
;
; The target is VS Code's JSON language service (vscode-json-languageservice, findDocumentSymbols2):
; every property is a symbol named by its key (without quotes), its kind from its value: object
; Module, array Array, string String, number Number, boolean Boolean, null Variable. Array items
; are symbols named by their index ("0", "1", …: `{index}`, comments not counted); the objects and
; arrays among them are listed (scalar items, leaves without children, are left out).

; --- Properties. An empty key is shown quoted, `""`. ---
((pair key: (string) @_key value: (object)) @symbol.module (#eq? @_key "\"\"") (#set! name "{_key}"))
((pair key: (string) @_key value: (array)) @symbol.array (#eq? @_key "\"\"") (#set! name "{_key}"))
((pair key: (string) @_key value: (string)) @symbol.string (#eq? @_key "\"\"") (#set! name "{_key}"))
((pair key: (string) @_key value: (number)) @symbol.number (#eq? @_key "\"\"") (#set! name "{_key}"))
((pair key: (string) @_key value: (true)) @symbol.boolean (#eq? @_key "\"\"") (#set! name "{_key}"))
((pair key: (string) @_key value: (false)) @symbol.boolean (#eq? @_key "\"\"") (#set! name "{_key}"))
((pair key: (string) @_key value: (null)) @symbol.variable (#eq? @_key "\"\"") (#set! name "{_key}"))
(pair key: (string (string_content) @name) value: (object)) @symbol.module
(pair key: (string (string_content) @name) value: (array)) @symbol.array
(pair key: (string (string_content) @name) value: (string)) @symbol.string
(pair key: (string (string_content) @name) value: (number)) @symbol.number
(pair key: (string (string_content) @name) value: (true)) @symbol.boolean
(pair key: (string (string_content) @name) value: (false)) @symbol.boolean
(pair key: (string (string_content) @name) value: (null)) @symbol.variable

; --- Objects and arrays inside arrays, named by index. ---
((array (object) @symbol.module) (#set! name "{index}"))
((array (array) @symbol.array) (#set! name "{index}"))
