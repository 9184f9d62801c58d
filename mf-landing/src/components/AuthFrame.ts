import styled from 'styled-components';
import { Card } from '@portal/ui';

/* The frame of the sign-in, registration and password-reset screens: one card centred on the page. */

export const AuthScreen = styled.main`
  min-height: 100vh;
  display: grid;
  place-items: center;
  padding: 24px;
`;

export const AuthPanel = styled(Card)<{ $wide?: boolean; $fading?: boolean }>`
  width: 100%;
  max-width: ${({ $wide }) => ($wide ? 480 : 440)}px;
  display: grid;
  gap: 16px;
  opacity: ${({ $fading }) => ($fading ? 0 : 1)};
  transition: opacity 200ms ease;
  h1 {
    margin: 0;
    font-size: 24px;
  }
  p {
    margin: 0;
  }
`;

export const AuthForm = styled.form`
  display: grid;
  gap: 14px;
`;
