; TypeScript-only patterns (private: shared by typescript and typescriptreact, never inherits).

; `declare …` and decorators written before a class member extend its range.
(ambient_declaration (_) @range.extend) @range.start
; `export declare namespace X` starts at `export` (the export's own rule reaches only `declare`).
(export_statement declaration: (ambient_declaration (_) @range.extend)) @range.start
(class_body (decorator)+ @range.start . (comment)* . [(method_definition) (method_signature) (abstract_method_signature)] @range.extend)
; A member's range includes the `;` or `,` that ends it (tree-sitter makes it the next sibling).
(class_body [(public_field_definition) (method_signature) (abstract_method_signature) (index_signature)] @range.extend . [";" ","] @range.end)
(interface_body [(property_signature) (method_signature) (call_signature) (construct_signature) (index_signature)] @range.extend . [";" ","] @range.end)

; The parameters of a function that initializes a variable, property or field are walked:
; destructured names become Variables. (Tried above each such name only, like the object types
; below: written as the grammar's kinds, this pattern cost a tenth of the query's compilation.)
((shorthand_property_identifier_pattern) @symbol.variable (#set! seed "true"))
((_ value: (_ parameters: (_ (_ pattern: (_ (_) @name @symbol.variable) @_destructure) @_param) @_params)) @_holder
  (#kind-eq? @_holder "variable_declarator" "pair" "public_field_definition") (#kind-eq? @_params "formal_parameters")
  (#kind-eq? @_param "required_parameter" "optional_parameter") (#kind-eq? @_destructure "object_pattern")
  (#kind-eq? @symbol.variable "shorthand_property_identifier_pattern") (#set! root.up "5"))

; `catch (e: unknown)`: the variable spans its type.
(catch_clause parameter: (identifier) @name @symbol.variable type: (_) @range.end)

; Object types the navigation tree walks: a call's type arguments (`register<{ a: A }>(…)`) and
; the parameter and return types of a function that initializes a variable, property or field
; (also inside a union, one written with a leading `|`, or an intersection), the type of an `as`
; or `satisfies` expression (`x as { a: A }`, `as C<{ a: A }>`). Their members are Properties,
; each with its `;` or `,`; nothing inside a member is walked.
; Written as the grammar's kinds they cost half of the query's compilation (tree-sitter analyses
; every named node with children against the grammar), so each is a `root.up` pattern of
; wildcards whose kinds are `#kind-eq?` predicates (nothing to analyse), tried only the given
; number of levels above each member the seed pattern finds (queries/README.md, `seed`).
((property_signature) @symbol.property (#set! seed "true"))
; `f<{ a: A }>()`, `new C<{ a: A }>()`, `f<{ a: A } | B>()`, `f<B | (C & { a: A })>()` (a leading `|`).
((_ type_arguments: (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_args) @_call
  (#kind-eq? @_call "call_expression" "new_expression") (#kind-eq? @_args "type_arguments")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "3"))
((_ type_arguments: (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_union) @_args) @_call
  (#kind-eq? @_call "call_expression") (#kind-eq? @_args "type_arguments") (#kind-eq? @_union "union_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "4"))
((_ type_arguments: (_ (_ (_ (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_and) @_paren) @_inner) @_union) @_args) @_call
  (#kind-eq? @_call "call_expression") (#kind-eq? @_args "type_arguments") (#kind-eq? @_union "union_type")
  (#kind-eq? @_inner "union_type") (#kind-eq? @_paren "parenthesized_type") (#kind-eq? @_and "intersection_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "7"))
; `const f = (p: { a: A }) => …`, `{ a: A } | B`, `{ a: A } & B`, `B | C | { a: A }` (required or optional parameters;
; also a property's or a field's initializer).
((_ value: (_ parameters: (_ (_ type: (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_type) @_param) @_params)) @_holder
  (#kind-eq? @_holder "variable_declarator" "pair" "public_field_definition") (#kind-eq? @_params "formal_parameters")
  (#kind-eq? @_param "required_parameter" "optional_parameter") (#kind-eq? @_type "type_annotation")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "6"))
((_ value: (_ parameters: (_ (_ type: (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_union) @_type) @_param) @_params)) @_holder
  (#kind-eq? @_holder "variable_declarator" "pair" "public_field_definition") (#kind-eq? @_params "formal_parameters")
  (#kind-eq? @_param "required_parameter" "optional_parameter") (#kind-eq? @_type "type_annotation")
  (#kind-eq? @_union "union_type" "intersection_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "7"))
((_ value: (_ parameters: (_ (_ type: (_ (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_inner) @_union) @_type) @_param) @_params)) @_holder
  (#kind-eq? @_holder "variable_declarator" "pair" "public_field_definition") (#kind-eq? @_params "formal_parameters")
  (#kind-eq? @_param "required_parameter" "optional_parameter") (#kind-eq? @_type "type_annotation")
  (#kind-eq? @_union "union_type") (#kind-eq? @_inner "union_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "8"))
; `const f = (): { a: A } => …`, `(): { a: A } | B => …`, `(): { a: A } & B => …`.
((_ value: (_ return_type: (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_type)) @_holder
  (#kind-eq? @_holder "variable_declarator" "pair" "public_field_definition") (#kind-eq? @_type "type_annotation")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "4"))
((_ value: (_ return_type: (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_union) @_type)) @_holder
  (#kind-eq? @_holder "variable_declarator" "pair" "public_field_definition") (#kind-eq? @_type "type_annotation")
  (#kind-eq? @_union "union_type" "intersection_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "5"))
; `x as { a: A }`, `x as { a: A } | B`, `x as C<{ a: A }>`, the same with `satisfies`. (Rooted at
; their kinds: a wildcard root would explore every callback's call the `root.up` patterns are
; tried at, and a keyword child instead costs more to compile.)
((as_expression (_ (_ name: (_) @name) @symbol.property) @_object)
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "2"))
((as_expression (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_union)
  (#kind-eq? @_union "union_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "3"))
((as_expression (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_args) @_generic)
  (#kind-eq? @_generic "generic_type") (#kind-eq? @_args "type_arguments")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "4"))
; `x as | { a: A } | B` (a leading `|`) and `x as C<B & { a: A }>`.
((as_expression (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_inner) @_union)
  (#kind-eq? @_union "union_type") (#kind-eq? @_inner "union_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "4"))
((as_expression (_ (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_and) @_args) @_generic)
  (#kind-eq? @_generic "generic_type") (#kind-eq? @_args "type_arguments") (#kind-eq? @_and "intersection_type" "union_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "5"))
((satisfies_expression (_ (_ name: (_) @name) @symbol.property) @_object)
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "2"))
((satisfies_expression (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_union)
  (#kind-eq? @_union "union_type")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "3"))
((satisfies_expression (_ (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_args) @_generic)
  (#kind-eq? @_generic "generic_type") (#kind-eq? @_args "type_arguments")
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.property "property_signature") (#set! root.up "4"))
; Method signatures of the type directly after `as` or `satisfies`.
((method_signature) @symbol.method (#set! seed "true"))
((as_expression (_ (_ name: (_) @name) @symbol.method) @_object)
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.method "method_signature") (#set! root.up "2"))
((satisfies_expression (_ (_ name: (_) @name) @symbol.method) @_object)
  (#kind-eq? @_object "object_type") (#kind-eq? @symbol.method "method_signature") (#set! root.up "2"))
; `export default x as { a: A }` holds nothing (see _ecma's `export default`).
(export_statement "default" value: [(as_expression) (satisfies_expression)] @ignore)
(object_type [(property_signature) (method_signature)] @range.extend . [";" ","] @range.end)
(object_type (property_signature type: (_) @ignore))

(abstract_class_declaration name: (_) @name) @symbol.class
(interface_declaration name: (_) @name) @symbol.interface
(enum_declaration name: (_) @name) @symbol.enum
(enum_body name: (_) @name @symbol.variable)
(enum_assignment name: (_) @name) @symbol.variable
(type_alias_declaration name: (_) @name) @symbol.variable
(function_signature name: (_) @name) @symbol.function

; Namespaces and modules: `namespace A.B.C` is one Module; `declare module "x"` keeps its quotes.
(internal_module name: (_) @name) @symbol.module
(module name: (_) @name) @symbol.module
((ambient_declaration "global" @name) @symbol.module)

; Class fields: a function or class initializer makes no symbol of its own. A computed name that
; is neither a dotted name nor a literal makes no symbol, nor anything inside the member.
([(public_field_definition name: (computed_property_name) @_n)
  (method_signature name: (computed_property_name) @_n)
  (abstract_method_signature name: (computed_property_name) @_n)
  (property_signature name: (computed_property_name) @_n)] @ignore
  (#not-match? @_n "^\\[\\s*([A-Za-z_$][A-Za-z0-9_$]*(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)*|[0-9][0-9A-Za-z_.]*|'([^'\\\\]|\\\\.)*'|\"([^\"\\\\]|\\\\.)*\"|`[^`$]*`)\\s*\\]$"))
(public_field_definition value: [(arrow_function) (function_expression) (generator_function) (class)] @skip)
; `@Log find(a: A): R;` (a decorated overload signature): the grammar reads a field `find` and an
; ERROR holding the parameters and return type; it is a Method spanning both and its `;`.
((class_body (public_field_definition name: (_) @name) @symbol.method . (ERROR . (formal_parameters)) @range.end)
  (#set! name.normalize "unbreak"))
(class_body (public_field_definition) @range.extend . (ERROR . (formal_parameters)) . ";" @range.end)
; `static accessor x`: the grammar reads `accessor` as the name and puts the real one in an ERROR
; node right after it (a bare `accessor x` parses well); the field is named by the real one.
((public_field_definition name: (property_identifier) @_a . (ERROR [(identifier) (private_property_identifier)] @name)) @symbol.property
  (#eq? @_a "accessor"))
((public_field_definition name: (_) @name) @symbol.property (#set! name.normalize "unbreak"))

; Constructor parameter properties are properties of the class, not of the constructor.
; Any of `public`/`private`/`protected`, `readonly` or `override` makes one (tsserver's
; ParameterPropertyModifier), on a required or an optional (`readonly uri?: U`) parameter.
((required_parameter (accessibility_modifier) pattern: (identifier) @name) @symbol.property (#set! hoist "true"))
((optional_parameter (accessibility_modifier) pattern: (identifier) @name) @symbol.property (#set! hoist "true"))
((required_parameter "readonly" pattern: (identifier) @name) @symbol.property (#set! hoist "true"))
((optional_parameter "readonly" pattern: (identifier) @name) @symbol.property (#set! hoist "true"))
((required_parameter (override_modifier) pattern: (identifier) @name) @symbol.property (#set! hoist "true"))
((optional_parameter (override_modifier) pattern: (identifier) @name) @symbol.property (#set! hoist "true"))

; Interface members (and overload signatures in classes).
; Accessor signatures of interfaces and classes (one in a type alias's object type is none).
((interface_body (method_signature "get" name: (_) @name) @symbol.property) (#set! name "(get) {name}"))
((class_body (method_signature "get" name: (_) @name) @symbol.property) (#set! name "(get) {name}"))
((interface_body (method_signature "set" name: (_) @name) @symbol.property) (#set! name "(set) {name}"))
((class_body (method_signature "set" name: (_) @name) @symbol.property) (#set! name "(set) {name}"))
((interface_body (method_signature name: (_) @name) @symbol.method) (#set! name.normalize "unbreak"))
((class_body (method_signature name: (_) @name) @symbol.method) (#set! name.normalize "unbreak"))
((abstract_method_signature "get" name: (_) @name) @symbol.property (#set! name "(get) {name}"))
((abstract_method_signature "set" name: (_) @name) @symbol.property (#set! name "(set) {name}"))
(abstract_method_signature name: (_) @name) @symbol.method
((interface_body (property_signature name: (_) @name) @symbol.property) (#set! name.normalize "unbreak"))
((interface_body (call_signature) @symbol.variable) (#set! name "()"))
((interface_body (construct_signature) @symbol.constructor) (#set! name "new()"))
(([(interface_body (index_signature) @symbol.variable) (class_body (index_signature) @symbol.variable)]) (#set! name "[]"))

; Parameter default values are not walked.
(required_parameter value: (_) @ignore)
(optional_parameter value: (_) @ignore)
