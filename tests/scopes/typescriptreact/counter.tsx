import { useEffect, useState } from 'react';

export function Counter({ start }: { start: number }) {
  const [count, setCount] = useState(start);
//       ^ Function:Counter > Variable:count
  useEffect(() => {
    document.title = `${count}`;
//  ^ Function:Counter > Function:useEffect() callback
  }, [count]);
  return (
    <button onClick={() => setCount(count + 1)}>
{/*                        ^ Function:Counter */}
      {count}
    </button>
  );
}
