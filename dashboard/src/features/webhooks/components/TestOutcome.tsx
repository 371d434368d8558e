import { Alert } from '@mantine/core';
import type { Delivery } from '../api/webhooks.api';

/** What "Send test" got back: the receiver's answer and the time it took, or why it failed. */
export function TestOutcome({ delivery }: { delivery: Delivery }) {
  const answer = delivery.responseCode === null ? 'no answer' : `HTTP ${delivery.responseCode}`;
  const took = delivery.durationMs === null ? '' : ` in ${delivery.durationMs} ms`;
  if (delivery.status === 'succeeded') {
    return (
      <Alert color="green" role="status" title="Test delivered">
        The receiver answered {answer}
        {took}.
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert" title="Test failed">
      The receiver answered {answer}
      {took}
      {delivery.error ? `: ${delivery.error}` : ''}. Fix the receiver, then “Redeliver” the ping below or send
      another test.
    </Alert>
  );
}
