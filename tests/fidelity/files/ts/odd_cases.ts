import { EventEmitter } from 'events';
import type { Readable } from 'stream';

function Component(options: { selector: string }): ClassDecorator {
  return target => {
    Reflect.defineMetadata('component', options, target);
  };
}

function Log(target: object, key: string | symbol, descriptor: PropertyDescriptor) {
  const original = descriptor.value;
  descriptor.value = function (...args: unknown[]) {
    console.log(`calling ${String(key)}`);
    return original.apply(this, args);
  };
}

const Input = (): PropertyDecorator => () => {};

/**
 * A user service with every kind of member.
 */
@Component({ selector: 'user-service' })
export class UserService extends EventEmitter {
  static instances = 0;
  static #registry = new Map<string, UserService>();
  #secret = 'hidden';
  private cache: Record<string, number> = {};
  readonly onChange = (value: string) => this.emit('change', value);

  @Input() label = 'users';
  @Input()
  declare hint?: string;

  static {
    UserService.instances = 0;
  }

  constructor(
    private readonly db: Map<string, string>,
    public name: string,
    protected retries = 3,
  ) {
    super();
    UserService.instances++;
  }

  get size(): number {
    return this.db.size;
  }

  set size(value: number) {
    this.cache['size'] = value;
  }

  @Log
  find(id: string): string | undefined;
  find(id: number): string | undefined;
  find(id: string | number): string | undefined {
    const key = String(id);
    const hit = this.db.get(key);
    return hit;
  }

  async *stream(source: Readable): AsyncGenerator<string> {
    for await (const chunk of source) {
      yield String(chunk);
    }
  }

  [Symbol.iterator]() {
    return this.db.keys();
  }

  'quoted-method'() {
    return this.#secret;
  }

  protected static create(): UserService {
    return new UserService(new Map(), 'default');
  }
}

export abstract class Shape {
  abstract area(): number;
  abstract get name(): string;

  describe(): string {
    return `${this.name}: ${this.area()}`;
  }
}

export const Square = class extends Shape {
  constructor(private side: number) {
    super();
  }
  area() {
    return this.side ** 2;
  }
  get name() {
    return 'square';
  }
};

const Anonymous = class {
  run() {}
};

export default class {
  handle(): void {}
}

export function parse(input: string): number;
export function parse(input: number): string;
export function parse(input: string | number): string | number {
  return typeof input === 'string' ? Number(input) : String(input);
}

function outer(a: number) {
  let counter = 0;
  const step = 2;
  function inner(b: number) {
    const sum = a + b;
    return sum;
  }
  class Local {
    value = inner(counter);
  }
  return new Local().value + step;
}

let mutable = 1, another = outer(2);
var legacy: string;
