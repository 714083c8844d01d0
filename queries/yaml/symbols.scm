; Symbols for YAML.
;
; The target is the VS Code YAML extension (yaml-language-server), which runs the YAML tree through
; VS Code's JSON outline (findDocumentSymbols2): every mapping key is a symbol named by the key, its
; kind from its value: mapping Module, sequence Array, string String, number Number, boolean
; Boolean, null or nothing Variable. An alias takes the kind of what it points to, which a query
; cannot follow: it is taken as a mapping (the usual `<<: *defaults`). Sequence items are named by
; index; queries cannot count, so one pattern per index names the mappings among the first 30 items
; of a block sequence, and the sequences, and the items of flow sequences, among the first 5 (long
; anchored chains make the query slow to compile). Scalar items, leaves, and later items are left
; out: their contents then nest directly under the sequence's key.

; --- Keys: a plain key is named by its text; a quoted key keeps its quotes. ---
(block_mapping_pair key: (flow_node (plain_scalar) @name) value: [(block_node (block_mapping)) (flow_node (flow_mapping)) (flow_node (alias))]) @symbol.module
(block_mapping_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: [(block_node (block_mapping)) (flow_node (flow_mapping)) (flow_node (alias))]) @symbol.module
(block_mapping_pair key: (flow_node (plain_scalar) @name) value: [(block_node (block_sequence)) (flow_node (flow_sequence))]) @symbol.array
(block_mapping_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: [(block_node (block_sequence)) (flow_node (flow_sequence))]) @symbol.array
(block_mapping_pair key: (flow_node (plain_scalar) @name) value: (flow_node (plain_scalar [(integer_scalar) (float_scalar)]))) @symbol.number
(block_mapping_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: (flow_node (plain_scalar [(integer_scalar) (float_scalar)]))) @symbol.number
(block_mapping_pair key: (flow_node (plain_scalar) @name) value: (flow_node (plain_scalar (boolean_scalar)))) @symbol.boolean
(block_mapping_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: (flow_node (plain_scalar (boolean_scalar)))) @symbol.boolean
(block_mapping_pair key: (flow_node (plain_scalar) @name) value: (flow_node (plain_scalar (null_scalar)))) @symbol.variable
(block_mapping_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: (flow_node (plain_scalar (null_scalar)))) @symbol.variable
(block_mapping_pair key: (flow_node (plain_scalar) @name) !value) @symbol.variable
(block_mapping_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) !value) @symbol.variable
(block_mapping_pair key: (flow_node (plain_scalar) @name)) @symbol.string
(block_mapping_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name)) @symbol.string
(flow_pair key: (flow_node (plain_scalar) @name) value: [(block_node (block_mapping)) (flow_node (flow_mapping)) (flow_node (alias))]) @symbol.module
(flow_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: [(block_node (block_mapping)) (flow_node (flow_mapping)) (flow_node (alias))]) @symbol.module
(flow_pair key: (flow_node (plain_scalar) @name) value: [(block_node (block_sequence)) (flow_node (flow_sequence))]) @symbol.array
(flow_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: [(block_node (block_sequence)) (flow_node (flow_sequence))]) @symbol.array
(flow_pair key: (flow_node (plain_scalar) @name) value: (flow_node (plain_scalar [(integer_scalar) (float_scalar)]))) @symbol.number
(flow_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: (flow_node (plain_scalar [(integer_scalar) (float_scalar)]))) @symbol.number
(flow_pair key: (flow_node (plain_scalar) @name) value: (flow_node (plain_scalar (boolean_scalar)))) @symbol.boolean
(flow_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: (flow_node (plain_scalar (boolean_scalar)))) @symbol.boolean
(flow_pair key: (flow_node (plain_scalar) @name) value: (flow_node (plain_scalar (null_scalar)))) @symbol.variable
(flow_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) value: (flow_node (plain_scalar (null_scalar)))) @symbol.variable
(flow_pair key: (flow_node (plain_scalar) @name) !value) @symbol.variable
(flow_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name) !value) @symbol.variable
(flow_pair key: (flow_node (plain_scalar) @name)) @symbol.string
(flow_pair key: (flow_node [(double_quote_scalar) (single_quote_scalar)] @name)) @symbol.string

; --- Mappings and sequences inside sequences, named by index. ---
((block_sequence . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "0"))
((block_sequence . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "1"))
((block_sequence . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "2"))
((block_sequence . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "3"))
((block_sequence . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "4"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "5"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "6"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "7"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "8"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "9"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "10"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "11"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "12"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "13"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "14"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "15"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "16"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "17"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "18"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "19"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "20"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "21"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "22"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "23"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "24"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "25"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "26"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "27"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "28"))
((block_sequence . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "29"))
((block_sequence . (block_sequence_item (block_node (block_sequence))) @symbol.array) (#set! name "0"))
((flow_sequence . (flow_node (flow_mapping)) @symbol.module) (#set! name "0"))
((flow_sequence . (flow_node (flow_sequence)) @symbol.array) (#set! name "0"))
((block_sequence . (_) . (block_sequence_item (block_node (block_sequence))) @symbol.array) (#set! name "1"))
((flow_sequence . (_) . (flow_node (flow_mapping)) @symbol.module) (#set! name "1"))
((flow_sequence . (_) . (flow_node (flow_sequence)) @symbol.array) (#set! name "1"))
((block_sequence . (_) . (_) . (block_sequence_item (block_node (block_sequence))) @symbol.array) (#set! name "2"))
((flow_sequence . (_) . (_) . (flow_node (flow_mapping)) @symbol.module) (#set! name "2"))
((flow_sequence . (_) . (_) . (flow_node (flow_sequence)) @symbol.array) (#set! name "2"))
((block_sequence . (_) . (_) . (_) . (block_sequence_item (block_node (block_sequence))) @symbol.array) (#set! name "3"))
((flow_sequence . (_) . (_) . (_) . (flow_node (flow_mapping)) @symbol.module) (#set! name "3"))
((flow_sequence . (_) . (_) . (_) . (flow_node (flow_sequence)) @symbol.array) (#set! name "3"))
((block_sequence . (_) . (_) . (_) . (_) . (block_sequence_item (block_node (block_sequence))) @symbol.array) (#set! name "4"))
((flow_sequence . (_) . (_) . (_) . (_) . (flow_node (flow_mapping)) @symbol.module) (#set! name "4"))
((flow_sequence . (_) . (_) . (_) . (_) . (flow_node (flow_sequence)) @symbol.array) (#set! name "4"))
