declare module 'draco3d' {
  /** The parts of Google's Draco encoder module (npm draco3d) the tests' writer uses. */
  interface EncoderObject {
    readonly ptr: number;
  }
  type EncoderMesh = EncoderObject;
  interface DracoInt8Array extends EncoderObject {
    GetValue(index: number): number;
  }
  interface EncoderModule {
    Encoder: new () => EncoderObject & {
      SetAttributeQuantization(type: number, bits: number): void;
      SetEncodingMethod(method: number): void;
      EncodeMeshToDracoBuffer(mesh: EncoderMesh, out: DracoInt8Array): number;
    };
    MeshBuilder: new () => EncoderObject & {
      AddFacesToMesh(mesh: EncoderMesh, faces: number, indices: Uint32Array): boolean;
      AddFloatAttributeToMesh(mesh: EncoderMesh, type: number, points: number, components: number, values: Float32Array): number;
    };
    Mesh: new () => EncoderMesh;
    DracoInt8Array: new () => DracoInt8Array;
    POSITION: number;
    MESH_EDGEBREAKER_ENCODING: number;
    MESH_SEQUENTIAL_ENCODING: number;
    destroy(object: EncoderObject): void;
  }
  const draco3d: { createEncoderModule(settings?: object): Promise<EncoderModule> };
  export default draco3d;
}
