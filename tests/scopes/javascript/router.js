'use strict';

class Router {
  constructor(options) {
    this.stack = [];
//  ^ Class:Router > Constructor:constructor
  }

  use(path, handler) {
    const layer = { path, handler };
//        ^ Class:Router > Method:use > Variable:layer
//                  ^ Class:Router > Method:use > Variable:layer > Property:path
    this.stack.push(layer);
  }
}

describe('Router', () => {
  it('routes', function () {
    const r = new Router();
//        ^ Function:describe('Router') callback > Function:it('routes') callback > Variable:r
  });
});

module.exports = Router;
// ^ Variable:<unknown>
