; JavaScript-only patterns (private: used by javascript, never inherits).

; A field with a computed name that is neither a dotted name nor a literal is not a symbol.
((field_definition property: (computed_property_name) @_n) @ignore
  (#not-match? @_n "^\\[\\s*([A-Za-z_$][A-Za-z0-9_$]*(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)*|[0-9][0-9A-Za-z_.]*|'([^'\\\\]|\\\\.)*'|\"([^\"\\\\]|\\\\.)*\"|`[^`$]*`)\\s*\\]$"))
; `accessor x = 1`: the grammar reads `accessor` as the name and puts the real one in an ERROR
; node right after it; the field is named by that one, as tsserver names it.
((field_definition property: (property_identifier) @_a . (ERROR [(identifier) (private_property_identifier)] @name)) @symbol.property
  (#eq? @_a "accessor"))
; A field's range includes the `;` that ends it (tree-sitter makes it the next sibling).
(class_body (field_definition) @range.extend . ";" @range.end)
(class_body (field_definition property: (_) @name value: [(arrow_function) (function_expression) (generator_function) (class)] @skip) @symbol.property)
((class_body (field_definition property: (_) @name) @symbol.property) (#set! name.normalize "unbreak"))

; ES5 classes: `F.prototype.m = function () {}`, `F.prototype.v = 1` and `F.prototype = {…}` are
; member groups of F (`join` in queries/README.md): after `function F() {}` or `var F = …` they
; make F a class; after `class F {}` they are not symbols at all, nor anything inside them.
; TypeScript files have no such groups (tsserver reads them only in JavaScript).
((expression_statement
   (assignment_expression
     left: (member_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p))
     right: [(arrow_function) (function_expression)])) @symbol.method
  (#eq? @_p "prototype") (#set! range.trim ";") (#set! join "prototype"))
((expression_statement
   (assignment_expression
     left: (subscript_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p))
     right: [(arrow_function) (function_expression)])) @symbol.method
  (#eq? @_p "prototype") (#set! range.trim ";") (#set! join "prototype"))
((expression_statement
   (assignment_expression
     left: (member_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p)))) @symbol.property
  (#eq? @_p "prototype") (#set! range.trim ";") (#set! join "prototype"))
((expression_statement
   (assignment_expression
     left: (member_expression object: (identifier) @name property: (property_identifier) @_p)
     right: (object (_)))) @symbol.property
  (#eq? @_p "prototype") (#set! range.trim ";") (#set! join "prototype"))
; `Object.defineProperty(F.prototype, 'x', {…})` and `Object.defineProperty(F, 'x', {…})` are member
; groups of F too, holding a Variable "x" that spans the call, with the descriptor's members in it.
((expression_statement
   (call_expression
     function: (member_expression object: (identifier) @_o property: (property_identifier) @_d)
     arguments: (arguments . (member_expression object: (identifier) @name property: (property_identifier) @_p) . (string) . (object)))) @symbol.property
  (#eq? @_o "Object") (#eq? @_d "defineProperty") (#eq? @_p "prototype")
  (#set! range.trim ";") (#set! join "prototype"))
((expression_statement
   (call_expression
     function: (member_expression object: (identifier) @_o property: (property_identifier) @_d)
     arguments: (arguments . (identifier) @name . (string) . (object)))) @symbol.property
  (#eq? @_o "Object") (#eq? @_d "defineProperty") (#not-any-of? @name "exports" "module")
  (#set! range.trim ";") (#set! join "prototype"))
((call_expression
   function: (member_expression object: (identifier) @_o property: (property_identifier) @_d)
   arguments: (arguments . (member_expression object: (identifier) property: (property_identifier) @_p) . (string (string_fragment) @name) . (object))) @symbol.variable
  (#eq? @_o "Object") (#eq? @_d "defineProperty") (#eq? @_p "prototype"))
((call_expression
   function: (member_expression object: (identifier) @_o property: (property_identifier) @_d)
   arguments: (arguments . (identifier) @_t . (string (string_fragment) @name) . (object))) @symbol.variable
  (#eq? @_o "Object") (#eq? @_d "defineProperty") (#not-any-of? @_t "exports" "module"))
; The member: a function is named by the assignment pattern in _ecma; a value is a Property.
(expression_statement
  (assignment_expression
    left: [(member_expression object: (member_expression object: (identifier) property: (property_identifier) @_p))
           (subscript_expression object: (member_expression object: (identifier) property: (property_identifier) @_p))]
    right: [(arrow_function) (function_expression)]) @skip
  (#eq? @_p "prototype"))
; Inside another assignment (`P.prototype.caught = P.prototype["catch"] = function () {}`) the
; inner assignment is a member group of its own.
((assignment_expression
   right: (assignment_expression
     left: [(member_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p))
            (subscript_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p))]
     right: [(arrow_function) (function_expression)]) @symbol.method)
  (#eq? @_p "prototype") (#set! join "prototype"))
((assignment_expression
   left: (member_expression object: (member_expression object: (identifier) property: (property_identifier) @_p) property: (property_identifier) @name)) @symbol.property
  (#eq? @_p "prototype"))
; `F.prototype[key] = value`: a Property named "[key]".
((expression_statement
   (assignment_expression
     left: (subscript_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p) index: (_)))) @symbol.property
  (#eq? @_p "prototype") (#set! range.trim ";") (#set! join "prototype"))
((assignment_expression
   left: (subscript_expression object: (member_expression object: (identifier) property: (property_identifier) @_p) index: (_) @_n)) @symbol.property
  (#eq? @_p "prototype") (#set! name "[{_n}]"))

; CommonJS: `module.exports = …` is "<unknown>", `exports.x = …` is named "x" (and is no symbol
; after a sibling of that name: `exports.F = F`).
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
  (#eq? @_x "exports") (#set! join "export"))
((assignment_expression
   left: (member_expression object: [(identifier) @_x (member_expression object: (identifier) @_m property: (property_identifier) @_x)] property: (_) @name)) @symbol.variable
  (#eq? @_x "exports") (#set! join "export"))

; Parameter default values are not walked.
(formal_parameters (assignment_pattern right: (_) @ignore))

; The parameters of a function that initializes a variable or property are walked:
; destructured names become Variables.
([(variable_declarator value: (_ parameters: (formal_parameters (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))))
  (pair value: (_ parameters: (formal_parameters (object_pattern (shorthand_property_identifier_pattern) @name @symbol.variable))))])
