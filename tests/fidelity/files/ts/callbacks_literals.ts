import { describe, it, expect, beforeEach } from 'vitest';

const users = [{ id: 1, name: 'ada' }, { id: 2, name: 'bob' }];

export const names = users.map(u => u.name);
export const total = users.reduce((acc, u) => acc + u.id, 0);
users.forEach(function (u) {
  console.log(u);
});
users.filter(function keep(u) {
  return u.id > 1;
});

fetch('/api/users')
  .then(response => response.json())
  .then(data => {
    const parsed = data as typeof users;
    return parsed;
  })
  .catch(err => console.error(err))
  .finally(() => console.log('done'));

setTimeout(() => {
  const late = true;
  console.log(late);
}, 100);

(function iife() {
  const insideIife = 1;
})();

(() => {
  const insideArrowIife = 2;
})();

const port = 8080;
export const config = {
  port,
  host: 'localhost',
  'quoted-key': true,
  [`computed_${port}`]: 1,
  nested: {
    deep: {
      value: 42,
      compute() {
        return this.value * 2;
      },
    },
    list: [1, 2, 3],
  },
  handler: (req: unknown) => req,
  method() {
    return 'm';
  },
  get lazy() {
    return port;
  },
  async load() {
    await Promise.resolve();
  },
};

export const handlers = {
  onClick: function () {},
  onHover: () => {},
};

describe('UserService', () => {
  let service: { find(id: number): unknown };

  beforeEach(() => {
    service = { find: id => users.find(u => u.id === id) };
  });

  it('finds a user', async () => {
    const found = service.find(1);
    expect(found).toBeDefined();
  });

  describe('nested suite', () => {
    it.each([1, 2])('finds %i', id => {
      expect(service.find(id)).toBeTruthy();
    });
  });
});

export const emitter = {
  on(event: string, cb: (...args: unknown[]) => void) {
    return { event, cb };
  },
};
emitter.on('ready', () => {
  const readyAt = Date.now();
  return readyAt;
});

export const arrowFn = async (a: number): Promise<number> => a * 2;
export const fnExpr = function named() {
  return 1;
};
export const { alpha, beta } = { alpha: 1, beta: 2 };
export const [head, ...tail] = [1, 2, 3];
