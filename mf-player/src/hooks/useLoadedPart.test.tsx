/** @jest-environment jsdom */
import { renderHook, waitFor } from '@testing-library/react';
import { useLoadedPart } from './useLoadedPart';

describe('a lesson part loaded without suspending', () => {
  it('is undefined until its module is in, then the module; a later mount has it at once without asking again', async () => {
    const module = { View: 'the view' };
    const load = jest.fn(() => Promise.resolve(module));
    const first = renderHook(() => useLoadedPart(load));
    expect(first.result.current).toEqual({ part: undefined, failed: false });
    await waitFor(() => expect(first.result.current.part).toBe(module));

    const later = renderHook(() => useLoadedPart(load));
    expect(later.result.current).toEqual({ part: module, failed: false });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing while it is not wanted, and loads once it is', async () => {
    const load = jest.fn(() => Promise.resolve({ Player: 'the player' }));
    const { result, rerender } = renderHook(({ wanted }) => useLoadedPart(load, wanted), { initialProps: { wanted: false } });
    await Promise.resolve();
    expect(load).not.toHaveBeenCalled();
    expect(result.current.part).toBeUndefined();

    rerender({ wanted: true });
    await waitFor(() => expect(result.current.part).toEqual({ Player: 'the player' }));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('says it failed when its files could not come', async () => {
    const load = jest.fn(() => Promise.reject(new Error('ChunkLoadError')));
    const { result } = renderHook(() => useLoadedPart(load));
    await waitFor(() => expect(result.current.failed).toBe(true));
    expect(result.current.part).toBeUndefined();
  });
});
