/**
 * @typedef {object} RouteOptions
 * @property {boolean} strict
//             ^ Variable:RouteOptions
 */
const methods = require('methods');

function Route(path) {
  this.path = path;
//     ^ Class:Route > Constructor:constructor
}

Route.prototype.dispatch = function dispatch(req, res, done) {
  var idx = 0;
//    ^ Class:Route > Function:dispatch > Variable:idx
};

Route.prototype.stack = [];
//              ^ Class:Route > Property:stack

Route.create = function (path) {
//             ^ Class:Route > Function:create
  return new Route(path);
};

class Runner {
  run() {}
}

Runner.prototype.runTests = function (suite) {
  const total = suite.total();
//      ^ <file>
};

methods.forEach(function (method) {
  Route.prototype[method] = function () {
    return this;
//  ^ Function:methods.forEach() callback > Method:Route > Function:[method]
  };
});

describe('Route', 'dispatch', () => {
  it('runs', () => {});
//^ Function:describe('Route', 'dispatch') callback
});

exports.Route = Route;
// ^ <file>
