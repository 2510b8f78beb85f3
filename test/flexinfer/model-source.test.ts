import { FlexInferModelSource, sourceScheme } from '../../src/flexinfer/model-source';

describe('FlexInferModelSource', () => {
  test('spells each scheme the way FlexInfer matches it', () => {
    expect(FlexInferModelSource.huggingFace('Qwen/Qwen3-0.6B').uri).toBe('HF://Qwen/Qwen3-0.6B');
    expect(FlexInferModelSource.ollama('llama3:8b').uri).toBe('ollama://llama3:8b');
    expect(FlexInferModelSource.file('/models/llama').uri).toBe('file:///models/llama');
    expect(FlexInferModelSource.persistentVolumeClaim('weights').uri).toBe('pvc://weights');
    expect(FlexInferModelSource.persistentVolumeClaim('weights', '/qwen/3').uri).toBe('pvc://weights/qwen/3');
    expect(FlexInferModelSource.fromUri('HF://gpt2').uri).toBe('HF://gpt2');
  });

  test('tells the scheme of a URI', () => {
    expect(['HF://a/b', 'ollama://x', 'file:///x', 'pvc://c', 'hf://a/b', 's3://b'].map(sourceScheme)).toEqual(['HF://', 'ollama://', 'file://', 'pvc://', undefined, undefined]);
  });
});
