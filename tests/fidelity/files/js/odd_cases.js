'use strict';

const path = require('path');
const { promisify } = require('util');

function Router(options) {
  if (!(this instanceof Router)) {
    return new Router(options);
  }
  this.stack = [];
  this.options = options || {};
  this.handle = function handle(req, res) {
    return this.stack.length;
  };
}

Router.prototype.use = function use(fn) {
  this.stack.push(fn);
  return this;
};

Router.prototype.route = function (path) {
  const route = { path };
  this.stack.push(route);
  return route;
};

Router.prototype = Object.assign(Router.prototype, {
  get length() {
    return this.stack.length;
  },
  reset() {
    this.stack = [];
  },
});

Router.create = function (opts) {
  return new Router(opts);
};

Object.defineProperty(Router.prototype, 'size', {
  get: function () {
    return this.stack.length;
  },
});

exports.helper = function helper(value) {
  return path.join('/', String(value));
};

exports.VERSION = '1.0.0';

module.exports.readFile = promisify(require('fs').readFile);

class Layer {
  constructor(path, fn) {
    this.path = path;
    this.fn = fn;
  }

  match(url) {
    return url.startsWith(this.path);
  }

  static from(obj) {
    return new Layer(obj.path, obj.fn);
  }
}

const Mixin = (Base) => class extends Base {
  mixed() {
    return true;
  }
};

var self = this;
var legacy = function () {
  var inner = 1;
  return inner;
};

/** @typedef {{ id: number, name: string }} User */

/**
 * @param {User} user
 */
function greet(user) {
  return `hello ${user.name}`;
}

[1, 2, 3].forEach(function (n) {
  console.log(n);
});

module.exports = {
  Router,
  Layer,
  Mixin,
  greet,
  create: Router.create,
  legacy() {
    return legacy();
  },
};
