; JavaScript-only patterns (private: used by javascript, never inherits).

(class_body (field_definition property: (_) @name value: [(arrow_function) (function_expression) (generator_function) (class)] @skip) @symbol.property)
(class_body (field_definition property: (_) @name) @symbol.property)

; CommonJS: `module.exports = …` is "<unknown>", `exports.x = …` is named "x".
((assignment_expression
   left: (member_expression object: (identifier) @_m property: (property_identifier) @_e)
   right: [(arrow_function) (function_expression)]) @symbol.function
  (#eq? @_m "module") (#eq? @_e "exports") (#set! name "<unknown>"))
((assignment_expression
   left: (member_expression object: (identifier) @_m property: (property_identifier) @_e)) @symbol.variable
  (#eq? @_m "module") (#eq? @_e "exports") (#set! name "<unknown>"))
((assignment_expression
   left: (member_expression object: [(identifier) @_x (member_expression object: (identifier) @_m property: (property_identifier) @_x)] property: (_) @name)
   right: [(arrow_function) (function_expression) (class)]) @symbol.function
  (#eq? @_x "exports"))
((assignment_expression
   left: (member_expression object: [(identifier) @_x (member_expression object: (identifier) @_m property: (property_identifier) @_x)] property: (_) @name)) @symbol.variable
  (#eq? @_x "exports"))

; Parameter default values are not walked.
(formal_parameters (assignment_pattern right: (_) @ignore))

; The parameters of a function that initializes a variable or property are walked:
; destructured names become Variables.
([(variable_declarator value: (_ parameters: (formal_parameters (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))))
  (pair value: (_ parameters: (formal_parameters (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))))])
