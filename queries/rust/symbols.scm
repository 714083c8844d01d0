; Symbols for Rust.
;
; The target is rust-analyzer's file structure (crates/ide/src/file_structure.rs) as its
; to_proto maps the kinds: items and record fields only; no `let` locals, closures or tuple
; fields. A fn is a Method when it takes `self`, else a Function (also inside impls).

; --- Outer attributes and doc comments belong to the item they precede (rust-analyzer keeps
; them inside the item's node). ---
((attribute_item) @range.start . (_) @range.extend)
([(line_comment outer: (_)) (block_comment outer: (_))] @range.start
  . [(attribute_item) (line_comment) (block_comment)]* . (_) @range.extend)

; --- Modules and types ---
(mod_item name: (_) @name) @symbol.module
(struct_item name: (_) @name) @symbol.struct
; rust-analyzer shows a union as a Struct.
(union_item name: (_) @name) @symbol.struct
(enum_item name: (_) @name) @symbol.enum
(enum_variant name: (_) @name) @symbol.enum_member
; Named fields of structs, unions and struct-like variants; tuple fields have no name.
(field_declaration name: (_) @name) @symbol.field
(trait_item name: (_) @name) @symbol.interface
(type_item name: (_) @name) @symbol.type_parameter

; --- impl blocks: an Object named `impl Type` or `impl Trait for Type`; the selection is the type.
; The type's text keeps its generic arguments (`impl Stack<T>`), not the impl's own `<T>`. ---
((impl_item "!" trait: (_) @_trait type: (_) @name) @symbol.object
  (#set! name "impl !{_trait} for {name}"))
((impl_item trait: (_) @_trait type: (_) @name) @symbol.object
  (#set! name "impl {_trait} for {name}"))
((impl_item type: (_) @name) @symbol.object
  (#set! name "impl {name}"))

; --- Functions: with a `self` parameter a Method, else a Function; trait signatures too. ---
(function_item name: (_) @name parameters: (parameters (self_parameter))) @symbol.method
(function_signature_item name: (_) @name parameters: (parameters (self_parameter))) @symbol.method
(function_item name: (_) @name) @symbol.function
(function_signature_item name: (_) @name) @symbol.function

; --- Values: rust-analyzer maps both `const` and `static` to Constant. ---
(const_item name: (_) @name) @symbol.constant
(static_item name: (_) @name) @symbol.constant

; --- Macros: `macro_rules!` definitions are Functions. ---
(macro_definition name: (_) @name) @symbol.function
