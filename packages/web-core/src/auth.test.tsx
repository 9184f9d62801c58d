import { renderToString } from 'react-dom/server';
import { AuthProvider, useAuth } from './auth';
import { decide } from './routes';

function Probe() {
  const { status, isAuthenticated } = useAuth();
  return <span>{`${status}:${isAuthenticated}`}</span>;
}

describe('useAuth', () => {
  it('throws when used outside its provider', () => {
    expect(() => renderToString(<Probe />)).toThrow('useAuth must be used within an AuthProvider');
  });

  it('reads the one auth store inside the provider', () => {
    expect(
      renderToString(
        <AuthProvider>
          <Probe />
        </AuthProvider>,
      ),
    ).toContain('loading:false');
  });
});

describe('the route guard', () => {
  it('lets anyone see public pages and sends anonymous visitors of protected pages to /auth', () => {
    expect(decide('/', { status: 'ready', role: null })).toEqual({ kind: 'allow' });
    expect(decide('/demo/course-editor', { status: 'ready', role: null })).toEqual({ kind: 'allow' });
    expect(decide('/courses', { status: 'ready', role: null })).toEqual({ kind: 'login' });
    expect(decide('/courses', { status: 'loading', role: null })).toEqual({ kind: 'loading' });
  });

  it('applies the role table of the spec', () => {
    expect(decide('/editor/abc', { status: 'ready', role: 'CANDIDATE' })).toMatchObject({
      kind: 'denied',
      required: ['ADMIN', 'CURATOR'],
    });
    expect(decide('/editor/abc', { status: 'ready', role: 'CURATOR' })).toEqual({ kind: 'allow' });
    // Authors open study mode as a preview that records nothing.
    expect(decide('/student/abc', { status: 'ready', role: 'ADMIN' })).toEqual({ kind: 'allow' });
    expect(decide('/student/abc', { status: 'ready', role: 'CANDIDATE' })).toEqual({ kind: 'allow' });
    expect(decide('/results', { status: 'ready', role: 'CLIENT' })).toEqual({ kind: 'allow' });
    expect(decide('/crm/orgs/1', { status: 'ready', role: 'MANAGER' })).toEqual({ kind: 'allow' });
    expect(decide('/dashboard', { status: 'ready', role: 'CANDIDATE' })).toEqual({ kind: 'allow' });
    expect(decide('/nowhere', { status: 'ready', role: 'ADMIN' })).toEqual({ kind: 'unknown' });
  });
});
