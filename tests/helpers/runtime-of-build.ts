// runtimeInfo() of one build, whatever env.threads says.
import { env, runtimeInfo, type RuntimeInfo } from './trident.js';

export async function runtimeInfoOfBuild(threads: boolean): Promise<RuntimeInfo> {
  const saved = env.threads;
  env.threads = threads;
  try {
    return await runtimeInfo();
  } finally {
    env.threads = saved;
  }
}
