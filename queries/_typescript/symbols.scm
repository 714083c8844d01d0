; TypeScript-only patterns (private: shared by typescript and typescriptreact, never inherits).

; `declare …` and decorators written before a class member extend its range.
(ambient_declaration (_) @range.extend) @range.start
(class_body (decorator)+ @range.start . (comment)* . [(method_definition) (method_signature) (abstract_method_signature)] @range.extend)
; A member's range includes the `;` or `,` that ends it (tree-sitter makes it the next sibling).
(class_body [(public_field_definition) (method_signature) (abstract_method_signature) (index_signature)] @range.extend . [";" ","] @range.end)
(interface_body [(property_signature) (method_signature) (call_signature) (construct_signature) (index_signature)] @range.extend . [";" ","] @range.end)

; The parameters of a function that initializes a variable, property or field are walked:
; destructured names become Variables.
([(variable_declarator value: (_ parameters: (formal_parameters [(required_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable)) (optional_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))])))
  (pair value: (_ parameters: (formal_parameters [(required_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable)) (optional_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))])))
  (public_field_definition value: (_ parameters: (formal_parameters [(required_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable)) (optional_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))])))])

; `catch (e: unknown)`: the variable spans its type.
(catch_clause parameter: (identifier) @name @symbol.variable type: (_) @range.end)

; Object types the navigation tree walks: a call's type arguments (`register<{ a: A }>(…)`) and
; the parameter and return types of a function that initializes a variable, property or field
; (also inside a union, one written with a leading `|`, or an intersection). Their members are Properties, each with its `;` or
; `,`; nothing inside a member is walked.
([(call_expression type_arguments: (type_arguments [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (union_type (union_type (parenthesized_type (intersection_type (object_type (property_signature name: (_) @name) @symbol.property)))))]))
  (new_expression type_arguments: (type_arguments (object_type (property_signature name: (_) @name) @symbol.property)))])
([(variable_declarator value: (_ parameters: (formal_parameters [(required_parameter type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (union_type (union_type (object_type (property_signature name: (_) @name) @symbol.property))) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))])) (optional_parameter type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (union_type (union_type (object_type (property_signature name: (_) @name) @symbol.property))) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))]))]))) (pair value: (_ parameters: (formal_parameters [(required_parameter type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (union_type (union_type (object_type (property_signature name: (_) @name) @symbol.property))) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))])) (optional_parameter type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (union_type (union_type (object_type (property_signature name: (_) @name) @symbol.property))) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))]))]))) (public_field_definition value: (_ parameters: (formal_parameters [(required_parameter type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (union_type (union_type (object_type (property_signature name: (_) @name) @symbol.property))) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))])) (optional_parameter type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (union_type (union_type (object_type (property_signature name: (_) @name) @symbol.property))) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))]))])))])
([(variable_declarator value: (_ return_type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))]))) (pair value: (_ return_type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))]))) (public_field_definition value: (_ return_type: (type_annotation [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (intersection_type (object_type (property_signature name: (_) @name) @symbol.property))])))])
; The type of an `as` or `satisfies` expression is walked too (`x as { a: A }`, `as C<{ a: A }>`).
([(as_expression [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (generic_type (type_arguments (object_type (property_signature name: (_) @name) @symbol.property)))]) (satisfies_expression [(object_type (property_signature name: (_) @name) @symbol.property) (union_type (object_type (property_signature name: (_) @name) @symbol.property)) (generic_type (type_arguments (object_type (property_signature name: (_) @name) @symbol.property)))])])
(object_type (property_signature) @range.extend . [";" ","] @range.end)
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
((required_parameter (accessibility_modifier) pattern: (identifier) @name) @symbol.property (#set! hoist "true"))
((optional_parameter (accessibility_modifier) pattern: (identifier) @name) @symbol.property (#set! hoist "true"))
((required_parameter "readonly" pattern: (identifier) @name) @symbol.property (#set! hoist "true"))

; Interface members (and overload signatures in classes).
((method_signature "get" name: (_) @name) @symbol.property (#set! name "(get) {name}"))
((method_signature "set" name: (_) @name) @symbol.property (#set! name "(set) {name}"))
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
