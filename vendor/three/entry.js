// The one vendored script of limina's web viewer: three.js with the two addons the viewer uses,
// exposed as one global so the viewer is plain classic scripts (and can be inlined into a single
// HTML document). Rebuild with ./build.sh (see README.md).
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

export { THREE, GLTFLoader, OrbitControls };
