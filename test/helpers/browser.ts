// Real Chromium for the browser tests: the launcher lives with the benchmarks that use it too.
export { CHROMIUM, launchChromium } from '../../build/bench/chromium.ts';
