; Declarators shared by C and C++ (private: inherited by c and cpp, never inherits).

; --- Fields. `int *a, *b;` makes one symbol per declarator, each over its own declarator. ---
(field_declaration declarator: [
  (field_identifier) @name
  (pointer_declarator declarator: (field_identifier) @name)
  (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
  (array_declarator declarator: (field_identifier) @name)
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  (bitfield_clause)] @symbol.field . ",")
(field_declaration "," . declarator: [
  (field_identifier) @name
  (pointer_declarator declarator: (field_identifier) @name)
  (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
  (array_declarator declarator: (field_identifier) @name)] @symbol.field)
(field_declaration ",") @skip
(field_declaration declarator: [
  (field_identifier) @name
  (pointer_declarator declarator: (field_identifier) @name)
  (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
  (array_declarator declarator: (field_identifier) @name)
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))]) @symbol.field

; --- Global variables (function bodies are ignored above), one per declarator as for fields. ---
(declaration declarator: [
  (identifier) @name
  (pointer_declarator declarator: (identifier) @name)
  (array_declarator declarator: (identifier) @name)
  (init_declarator declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)])] @symbol.variable . ",")
(declaration "," . declarator: [
  (identifier) @name
  (pointer_declarator declarator: (identifier) @name)
  (array_declarator declarator: (identifier) @name)
  (init_declarator declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)])] @symbol.variable)
(declaration ",") @skip
(declaration declarator: [
  (identifier) @name
  (pointer_declarator declarator: (identifier) @name)
  (array_declarator declarator: (identifier) @name)
  (init_declarator declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)])]) @symbol.variable
