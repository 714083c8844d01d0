import { Db } from './db';
// ^ <file>

export interface User {
  id: string;
//^ Interface:User > Property:id
  rename(name: string): void;
//^ Interface:User > Method:rename
}

export class UserService {
  private readonly cache = new Map<string, User>();
//                 ^ Class:UserService > Property:cache

  constructor(private readonly db: Db) {}
//                             ^ Class:UserService > Constructor:constructor > Property:db

  async findUser(id: string): Promise<User | undefined> {
    const cached = this.cache.get(id);
//        ^ Class:UserService > Method:findUser > Variable:cached
    return cached ?? this.db.users.find(u => u.id === id);
//                                       ^ Class:UserService > Method:findUser > Function:db.users.find() callback
  }

  get size(): number {
    return this.cache.size;
//         ^ Class:UserService > Property:(get) size
  }
}

export enum Role {
  Admin = 'admin',
//^ Enum:Role > Variable:Admin
}

export namespace Api.V1 {
  export const base = '/api/v1';
//             ^ Module:Api.V1 > Variable:base
}

export const handlers = {
  onSave: (user: User) => {
    const stamp = Date.now();
//        ^ Variable:handlers > Method:onSave > Variable:stamp
    return { user, stamp };
  },
};

// A comment between a callback's receiver and its method is not part of the name (tsserver:
// `registrations.filter() callback`; tsyringe's dependency-container.ts).
export function clearInstances(registrations: string[]): string[] {
  return registrations
    // Keep the named ones
    .filter(registration => {
      return registration.length > 0;
//    ^ Function:clearInstances > Function:registrations.filter() callback
    });
}
