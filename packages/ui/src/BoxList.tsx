import styled from 'styled-components';
import { PlainList } from './components';

/** A list without bullets whose items are boxes, bordered and rounded (contacts, an order to set, questions). */
export const BoxList = styled(PlainList)`
  > li {
    padding: 10px 12px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius};
  }
`;
