/**
 * Whether WebGL here is drawn on the CPU (no GPU, or one the browser blocks): SwiftShader, Mesa's
 * llvmpipe or softpipe, Windows' basic render driver. Such a renderer pays for every sample of every
 * pixel, so the stage then turns multisampling off and draws one pixel per CSS pixel: about twice the
 * frame rate, for a slightly rougher picture. Returns the renderer's name, or null for a GPU.
 */
export function softwareRendererName(): string | null {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
  if (gl === null) return null;
  try {
    // Current browsers answer RENDERER unmasked; older ones only through the debug extension.
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(debug !== null ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    return /swiftshader|llvmpipe|softpipe|software|basic render/i.test(name) ? name : null;
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
