; Symbols for YAML.
;
; The target is the VS Code YAML extension (yaml-language-server), which runs the YAML tree through
; VS Code's JSON outline (findDocumentSymbols2): every mapping key is a symbol named by the key, its
; kind from its value: mapping Module, sequence Array, string String, number Number, boolean
; Boolean, null or nothing Variable. An alias takes the kind of what it points to, which a query
; cannot follow: it is taken as a mapping (the usual `<<: *defaults`). Sequence items are named by
; index (`{index}`, comments not counted); the mappings and sequences among them are listed.
; Scalar items, leaves, are left out.

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
((block_sequence (block_sequence_item (block_node (block_mapping))) @symbol.module) (#set! name "{index}"))
((block_sequence (block_sequence_item (block_node (block_sequence))) @symbol.array) (#set! name "{index}"))
((block_sequence (block_sequence_item (flow_node (flow_mapping))) @symbol.module) (#set! name "{index}"))
((block_sequence (block_sequence_item (flow_node (flow_sequence))) @symbol.array) (#set! name "{index}"))
((flow_sequence (flow_node (flow_mapping)) @symbol.module) (#set! name "{index}"))
((flow_sequence (flow_node (flow_sequence)) @symbol.array) (#set! name "{index}"))
