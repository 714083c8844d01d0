export namespace A.B.C {
  export const depth = 3;
  export function walk(): void {}
}

namespace Outer {
  export namespace Inner {
    export class Thing {
      id = 0;
    }
  }
  const hidden = Inner.Thing;
}

declare module 'express-serve-static-core' {
  interface Request {
    user?: { id: string };
  }
}

declare global {
  interface Window {
    __APP_STATE__: unknown;
  }
  var __DEV__: boolean;
}

export enum Color {
  Red,
  Green = 'green',
  Blue = 1 << 2,
}

const enum Direction {
  Up = 1,
  Down,
}

declare enum Ambient {
  X,
}

export interface Repository<T extends { id: string }> {
  readonly name: string;
  items?: T[];
  (query: string): T[];
  new (seed: T[]): Repository<T>;
  [key: string]: unknown;
  find(id: string): T | undefined;
  save: (item: T) => Promise<void>;
}

interface Merged {
  a: number;
}
interface Merged {
  b: string;
}

export type Id = string | number;
export type Handler<E = Event> = (event: E) => void;
type Point = {
  x: number;
  y: number;
  nested: { deep: boolean };
  method(): void;
};
type Mapped<T> = { [K in keyof T]?: T[K] };

export default function bootstrap(config: Partial<Point>): Id {
  const { x = 0, y: renamed, ...rest } = config;
  const [first, , third = 3] = [x, renamed, 0];
  return first + third + Object.keys(rest).length;
}

export abstract class Store<TState> {
  protected state!: TState;
  abstract reduce<TAction>(action: TAction): TState;
}

declare function ambientFn(x: number): void;
declare const ambientConst: string;
declare class AmbientClass {
  method(): void;
}

export { Direction as Dir };
export * from './other';
