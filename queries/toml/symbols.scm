; Symbols for TOML.
;
; The target is Even Better TOML (taplo's document symbols): every key is a symbol, its kind from
; its value: table Object, array Array, string String, integer and float Number, boolean Boolean,
; date and time Field. taplo builds them from the merged document tree, so `[a.b]` shows as b
; inside a; here a table is one symbol named by its whole header key (`package.metadata`), holding
; the pairs below it, and a dotted key (`a.b = 1`) is one symbol too. An array of tables
; (`[[bin]]`) is an Object per element, named by its key (taplo: Array bin > Object 0, 1, …).
; Array items are named by index ("0", "1", …: `{index}`, comments not counted); the inline tables
; and arrays among them are listed (scalar items, leaves, are left out).

; --- Tables: `[name]` and `[[name]]`. ---
(table . [(bare_key) (quoted_key) (dotted_key)] @name) @symbol.object
(table_array_element . [(bare_key) (quoted_key) (dotted_key)] @name) @symbol.object

; --- Key/value pairs (in tables and inline tables). ---
(pair . [(bare_key) (quoted_key) (dotted_key)] @name . (string)) @symbol.string
(pair . [(bare_key) (quoted_key) (dotted_key)] @name . [(integer) (float)]) @symbol.number
(pair . [(bare_key) (quoted_key) (dotted_key)] @name . (boolean)) @symbol.boolean
(pair . [(bare_key) (quoted_key) (dotted_key)] @name . [(offset_date_time) (local_date_time) (local_date) (local_time)]) @symbol.field
(pair . [(bare_key) (quoted_key) (dotted_key)] @name . (array)) @symbol.array
(pair . [(bare_key) (quoted_key) (dotted_key)] @name . (inline_table)) @symbol.object

; --- Inline tables and arrays inside arrays, named by index. ---
((array (inline_table) @symbol.object) (#set! name "{index}"))
((array (array) @symbol.array) (#set! name "{index}"))
