import React, { forwardRef, memo, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';

type Todo = { id: number; title: string; done: boolean };

type Action =
  | { type: 'add'; title: string }
  | { type: 'toggle'; id: number };

interface TodoListProps {
  initial: Todo[];
  onChange?: (todos: Todo[]) => void;
}

function reducer(state: Todo[], action: Action): Todo[] {
  switch (action.type) {
    case 'add':
      return [...state, { id: state.length + 1, title: action.title, done: false }];
    case 'toggle':
      return state.map(t => (t.id === action.id ? { ...t, done: !t.done } : t));
  }
}

export function useDebounced<T>(value: T, delay = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const handle = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(handle);
  }, [value, delay]);
  return debounced;
}

export const TodoList: React.FC<TodoListProps> = ({ initial, onChange }) => {
  const [todos, dispatch] = useReducer(reducer, initial);
  const [draft, setDraft] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const remaining = useMemo(() => todos.filter(t => !t.done).length, [todos]);

  const add = useCallback(() => {
    dispatch({ type: 'add', title: draft });
    setDraft('');
  }, [draft]);

  useEffect(() => {
    onChange?.(todos);
  }, [todos, onChange]);

  return (
    <div className="todo-list">
      <input ref={inputRef} value={draft} onChange={e => setDraft(e.target.value)} />
      <button onClick={add}>Add</button>
      <ul>
        {todos.map(todo => (
          <li key={todo.id} onClick={() => dispatch({ type: 'toggle', id: todo.id })}>
            {todo.title}
          </li>
        ))}
      </ul>
      <footer>{remaining} left</footer>
    </div>
  );
};

export const FancyInput = forwardRef<HTMLInputElement, { label: string }>(function FancyInput(props, ref) {
  return (
    <label>
      {props.label}
      <input ref={ref} />
    </label>
  );
});

export const Row = memo(({ title }: { title: string }) => <tr><td>{title}</td></tr>);

export function List<T extends { id: string }>({ items, render }: { items: T[]; render: (item: T) => React.ReactNode }) {
  return <ul>{items.map(item => <li key={item.id}>{render(item)}</li>)}</ul>;
}

export default class ErrorBoundary extends React.Component<{ children: React.ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error) {
    console.error(error);
  }

  render() {
    if (this.state.error) {
      return <p role="alert">{this.state.error.message}</p>;
    }
    return this.props.children;
  }
}

const styles = {
  container: { display: 'flex', gap: 8 },
  item: { padding: 4 },
};
