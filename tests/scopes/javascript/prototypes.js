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

// A comment between a callback's receiver and its method is not part of the name (tsserver:
// `headers.reduce() callback`; node-fetch's headers.js).
function fromRawHeaders(headers) {
  return headers
    // Split into pairs
    .reduce((result, value) => {
      return result;
//    ^ Function:fromRawHeaders > Function:headers.reduce() callback
    }, []);
}

// A prototype value after a static value of its name is no symbol (tsserver merges it into the
// static one; request.js: `Request.debug = …` then `Request.prototype.debug = debug`).
function Request(options) {
  this.options = options;
}
Request.debug = process.env.NODE_DEBUG;
// ^ Class:Request > Variable:debug
function debug() {}
Request.prototype.debug = debug;
//                  ^ Class:Request
Request.prototype.other = debug;
//                  ^ Class:Request > Property:other

// A prototype value right after a function member of its name makes that function a class
// holding its constructor and the value (tsserver; events.js's `listenerCount`).
function Emitter() {}
Emitter.listenerCount = function (emitter, type) {
  return emitter.listenerCount(type);
//       ^ Class:Emitter > Class:listenerCount > Constructor:constructor
};
Emitter.prototype.listenerCount = listenerCount;
//                  ^ Class:Emitter > Class:listenerCount > Property:listenerCount
function listenerCount(type) {}
