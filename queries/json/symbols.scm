; Symbols for JSON.
;
; The target is VS Code's JSON language service (vscode-json-languageservice, findDocumentSymbols2):
; every property is a symbol named by its key (without quotes), its kind from its value: object
; Module, array Array, string String, number Number, boolean Boolean, null Variable. Array items
; are symbols named by their index ("0", "1", …); queries cannot count, so one pattern per index
; names the objects and arrays among the first 30 items (scalar items, leaves without children,
; and later items are left out: their contents then nest directly under the array).

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
((array . (object) @symbol.module) (#set! name "0"))
((array . (array) @symbol.array) (#set! name "0"))
((array . (_) . (object) @symbol.module) (#set! name "1"))
((array . (_) . (array) @symbol.array) (#set! name "1"))
((array . (_) . (_) . (object) @symbol.module) (#set! name "2"))
((array . (_) . (_) . (array) @symbol.array) (#set! name "2"))
((array . (_) . (_) . (_) . (object) @symbol.module) (#set! name "3"))
((array . (_) . (_) . (_) . (array) @symbol.array) (#set! name "3"))
((array . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "4"))
((array . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "4"))
((array . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "5"))
((array . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "5"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "6"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "6"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "7"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "7"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "8"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "8"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "9"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "9"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "10"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "10"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "11"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "11"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "12"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "12"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "13"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "13"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "14"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "14"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "15"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "15"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "16"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "16"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "17"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "17"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "18"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "18"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "19"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "19"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "20"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "20"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "21"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "21"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "22"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "22"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "23"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "23"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "24"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "24"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "25"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "25"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "26"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "26"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "27"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "27"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "28"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "28"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (object) @symbol.module) (#set! name "29"))
((array . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (array) @symbol.array) (#set! name "29"))
