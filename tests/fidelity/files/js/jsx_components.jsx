import React, { useEffect, useState } from 'react';
import PropTypes from 'prop-types';

export function Avatar({ user, size = 48 }) {
  return <img src={user.avatarUrl} alt={user.name} width={size} height={size} />;
}

Avatar.propTypes = {
  user: PropTypes.shape({ name: PropTypes.string }).isRequired,
  size: PropTypes.number,
};

Avatar.defaultProps = {
  size: 48,
};

export const Comment = ({ author, text, date }) => {
  const [expanded, setExpanded] = useState(false);
  const toggle = () => setExpanded(v => !v);

  return (
    <div className="comment" onClick={toggle}>
      <Avatar user={author} />
      <p>{expanded ? text : text.slice(0, 80)}</p>
      <time dateTime={date.toISOString()}>{date.toLocaleDateString()}</time>
    </div>
  );
};

function useFetch(url) {
  const [state, setState] = useState({ loading: true, data: null });
  useEffect(() => {
    let cancelled = false;
    fetch(url)
      .then(r => r.json())
      .then(data => {
        if (!cancelled) setState({ loading: false, data });
      });
    return () => {
      cancelled = true;
    };
  }, [url]);
  return state;
}

export default function CommentList({ url }) {
  const { loading, data } = useFetch(url);
  if (loading) {
    return <Spinner />;
  }
  return (
    <section>
      {data.map(c => (
        <Comment key={c.id} author={c.author} text={c.text} date={new Date(c.date)} />
      ))}
    </section>
  );
}

const Spinner = () => <div className="spinner" aria-busy="true" />;

export class Toggle extends React.Component {
  state = { on: false };

  handleClick = () => {
    this.setState(prev => ({ on: !prev.on }));
  };

  render() {
    const { on } = this.state;
    return <button onClick={this.handleClick}>{on ? 'ON' : 'OFF'}</button>;
  }
}
