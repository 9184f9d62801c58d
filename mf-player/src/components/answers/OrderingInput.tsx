import styled from 'styled-components';
import { BoxList, Button } from '@portal/ui';
import type { AnswerInputProps } from './props';

/** ordering with buttons, which every keyboard and screen reader can use; the answer is the options' indexes in order. */
export function OrderingInput({ question, value, onChange, disabled }: AnswerInputProps) {
  const { options } = question;
  const order = Array.isArray(value) ? (value as number[]) : options.map((_, i) => i);
  const move = (from: number, to: number) => {
    const next = [...order];
    [next[from], next[to]] = [next[to], next[from]];
    onChange(next);
  };
  return (
    <OrderList>
      {order.map((optionIndex, position) => (
        <li key={optionIndex}>
          <span>
            {position + 1}. {options[optionIndex]}
          </span>
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            disabled={disabled || position === 0}
            aria-label={`Выше: ${options[optionIndex]}`}
            onClick={() => move(position, position - 1)}
          >
            ↑
          </Button>
          <Button
            type="button"
            $variant="outline"
            $size="sm"
            disabled={disabled || position === order.length - 1}
            aria-label={`Ниже: ${options[optionIndex]}`}
            onClick={() => move(position, position + 1)}
          >
            ↓
          </Button>
        </li>
      ))}
    </OrderList>
  );
}

const OrderList = styled(BoxList).attrs({ as: 'ol' })`
  > li {
    display: grid;
    grid-template-columns: 1fr auto auto;
    align-items: center;
    gap: 8px;
    padding: 8px 12px;
  }
`;
