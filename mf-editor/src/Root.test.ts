import { screenFor } from './Root';

describe('the routes of the editor micro-frontend', () => {
  it('maps each path of spec section 2 to its screen', () => {
    expect(screenFor('/editor/64b7f0c2a1b2c3d4e5f60718')).toEqual({ kind: 'course', courseId: '64b7f0c2a1b2c3d4e5f60718' });
    expect(screenFor('/editor/abc/')).toEqual({ kind: 'course', courseId: 'abc' });
    expect(screenFor('/lesson/new/m1')).toEqual({ kind: 'new-lesson', moduleId: 'm1' });
    expect(screenFor('/lesson/new')).toEqual({ kind: 'new-lesson', moduleId: null });
    expect(screenFor('/lesson/new/')).toEqual({ kind: 'new-lesson', moduleId: null });
    expect(screenFor('/lesson-editor-demo')).toEqual({ kind: 'demo', demo: 'lesson-editor' });
    expect(screenFor('/demo/lesson-editor')).toEqual({ kind: 'demo', demo: 'lesson-editor' });
    expect(screenFor('/demo/block-editor')).toEqual({ kind: 'demo', demo: 'block-editor' });
    expect(screenFor('/demo/course-editor')).toEqual({ kind: 'demo', demo: 'course-editor' });
    expect(screenFor('/demo')).toEqual({ kind: 'demo', demo: 'index' });
    expect(screenFor('/demo/unknown')).toEqual({ kind: 'unknown' });
  });
});
