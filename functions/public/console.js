var $,Fe,Dt,I,$e,re,Ie,ne,He,ye,ve,At,z=Symbol.for("pv"),ae={},ie=[],jt=/^m(i|n|o|s|text|space)$/,we=Array.isArray,ke=ie.slice,J=Object.assign;function V(e){e&&e.parentNode&&e.remove()}function We(e,t,n){var s,i,o,a={},r=arguments.length;for(o in t)o=="key"?s=t[o]:o=="ref"&&typeof e!="function"?i=t[o]:a[o]=t[o];return r>2&&(a.children=r>3?ke.call(arguments,2):n),K(e,a,s,i,null)}function K(e,t,n,s,i){var o={type:e,props:t,key:n,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:z,__v:i||++Fe,__i:-1,__u:0};return!i&&$.vnode&&$.vnode(o),o}function le(e){return e.children}function oe(e,t){this.props=e,this.context=t,this.__g=0}function H(e,t){if(t==null)return e.__&&H(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!="function"||e.props.__P?null:H(e)}function Nt(e){var t,n=e.__v,s=n.__e,i=[],o=[],a=e.__P;a&&((t=J({constructor:z},n)).__v=n.__v+1,$.vnode&&$.vnode(t),xe(a,t,n,e.__n,a.namespaceURI,32&n.__u?[s]:null,i,s||H(n),32&n.__u,o),t.__v=n.__v,t.__.__k[t.__i]=t,ze(i,t,o),n.__=n.__e=null,t.__e!=s&&Be(t))}function Be(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Be(e)}function Ne(e){(8&e.__g||(e.__g|=8,I.push(e),re++))&&$e==$.debounceRendering||(($e=$.debounceRendering)||queueMicrotask)(Ve)}function Ve(){try{for(var e,t=1;I.length;)I.length>t&&I.sort(Ie),e=I.shift(),t=I.length,8&e.__g&&Nt(e)}finally{(re=I.length)&&($e||queueMicrotask)(Ve)}}function Je(e,t,n,s,i,o,a,r,d,_,l){var m,p,c,f,x,b,v=s.__k||ie,g=t.length;for(d=Ut(n,t,v,d,g),m=0;m<g;m++)(c=n.__k[m])!=null&&(p=~c.__i&&v[c.__i]||ae,c.__i=m,b=xe(e,c,p,i,o,a,r,d,_,l),f=c.__e,(p.ref!=c.ref||8&p.__u)&&(p.ref&&Se(p.ref,null,c,p),c.ref&&l.push(c.ref,c.__c||f,c)),x=x||f,4&c.__u?(d=qe(c,d,e,!p.__v),p.__e&&(p.__e=null)):typeof c.type=="function"&&b!==void 0?d=b:f&&(d=f.nextSibling),c.__u&=-21);return n.__e=x,d}function Ut(e,t,n,s,i){var o,a,r,d,_,l,m,p,c,f=n.length,x=f,b=0,v=0,g=e.__k=Array(i);for(o=0;o<i;o++)(a=t[o])!=null&&typeof a!="boolean"&&typeof a!="function"?(typeof a!="object"||a.constructor===String?a=g[o]=K(null,a):we(a)?a=g[o]=K(le,{children:a}):a.constructor===z&&a.__b?a=g[o]=K(a.type,a.props,a.key,a.ref,a.__v):g[o]=a,d=o+b,a.__=e,a.__b=e.__b+1,r=null,~(_=a.__i=Ft(a,n,d,x))&&(x--,(r=n[_])&&(r.__u|=2)),r&&r.__v?(a.__u|=16,_==d-1?b--:_==d+1?b++:_!=d&&(_>d?b--:b++,v=1)):(~_||(i>f?b--:i<f&&b++),typeof a.type!="function"&&(a.__u|=4))):g[o]=null;if(v){for(l=[],m=[],o=0;o<i;o++)if((a=g[o])&&16&a.__u){for(b=0,p=l.length;b<p;)l[c=b+p>>1]<a.__i?b=c+1:p=c;l[b]=a.__i,m[o]=b+1}for(b=l.length;o--;)m[o]&&(m[o]==b?b--:g[o].__u|=4)}if(x)for(o=0;o<f;o++)!(r=n[o])||2&r.__u||(r.__e==s&&(s=H(r)),Te(r,r));return s}function qe(e,t,n,s){var i,o,a,r;if(typeof e.type=="function"){if(e.props.__P)return t;if(i=e.__k)for(o=0;o<i.length;o++)i[o]&&(i[o].__=e,t=qe(i[o],t,n,!1));return t}for(t&&!t.parentNode&&(t=H(e))&&!t.parentNode&&(t=null),a=e.__e,r=t;r&&r.nodeType==8;)r=r.nextSibling;for(a!=r&&(!s&&n.moveBefore&&a.parentNode?n.moveBefore(a,t):n.insertBefore(a,t||null)),t=a;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function Ft(e,t,n,s){var i,o=e.key,a=e.type,r=t[n],d=r&&!(2&r.__u);if(r===null&&o==null||d&&o==r.key&&a==r.type)return n;if(s>(d?1:0)){for(i=n-1;i>=0;i--)if((r=t[i])&&!(2&r.__u)&&o==r.key&&a==r.type)return i;for(i=n+1;i<t.length;i++)if((r=t[i])&&!(2&r.__u)&&o==r.key&&a==r.type)return i}return-1}function Ue(e,t,n){n==null&&(n=""),t[0]=="-"?e.setProperty(t,n):e[t]=n}function te(e,t,n,s,i){var o,a;if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof s=="string"&&(e.style.cssText=s=""),s)for(t in s)n&&t in n||Ue(e.style,t);if(n)for(t in n)s&&n[t]==s[t]||Ue(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")typeof n!="function"&&(n=null),typeof s!="function"&&(s=null),(e.__e||(e.__e={}))[t]=n,n&&s||(a=ve[t]||(ve[t]=It(t)),(e.__a||(e.__a={}))[t]=ye,o=t!=(t=t.replace(He,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),n?e.addEventListener(t,a,o):e.removeEventListener(t,a,o));else{if(i=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n)}}function It(e){return function(t){var n=this.__e;if(n){if(n=n[e],t[ne]==null)t[ne]=ye++;else if(t[ne]<this.__a[e])return;return n($.event?$.event(t):t)}}}function xe(e,t,n,s,i,o,a,r,d,_){var l,m,p,c,f,x,b,v,g,S,y,be,Ae,ee,W,je,F,B,D=t.type;if(t.constructor!==z)return null;128&n.__u&&(d=32&n.__u,l=n.__c.__z)&&(t.__u|=d,m=o=[],l.nodeType==8?r=se(l,o):o.push(l),r=o[0]||r),(l=$.__b)&&l(t);e:if(typeof D=="function"){p=a.length;try{if(v=t.props,g=(l=D.prototype)&&l.render,S=(l=D.contextType)&&s[l.__c],y=l?S?S.props.value:l.__:s,(c=n.__c)?(t.__c=c,2&c.__g&&(c.__g|=1)):(g?t.__c=c=new D(v,y):(t.__c=c=new oe(v,y),c.constructor=D,c.render=Wt),S&&S.sub(c),c.state||(c.state={}),c.__n=s,c.__g|=8,c.__h=[],c.__k=[]),g&&(c.__s||(c.__s=c.state),D.getDerivedStateFromProps&&(c.__s==c.state&&(c.__s=J({},c.__s)),J(c.__s,D.getDerivedStateFromProps(v,c.__s)))),f=c.props,x=c.state,c.__v=t,n.__c){if(v!==f&&g&&!D.getDerivedStateFromProps&&c.componentWillReceiveProps&&c.componentWillReceiveProps(v,y),t.__v==n.__v&&!(8&c.__g)||!(4&c.__g)&&c.shouldComponentUpdate&&c.shouldComponentUpdate(v,c.__s,y)===!1){t.__v!=n.__v&&(c.props=v,c.state=c.__s,c.__g&=-9),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(R){R&&(R.__=t)}),ie.push.apply(c.__h,c.__k),c.__k=[],c.__h.length&&a.push(c),r=H(n);break e}c.componentWillUpdate&&c.componentWillUpdate(v,c.__s,y),g&&c.componentDidUpdate&&c.__h.push(function(){c.componentDidUpdate(f,x,b)})}else g&&!D.getDerivedStateFromProps&&c.componentWillMount&&c.componentWillMount(),g&&c.componentDidMount&&c.__h.push(c.componentDidMount);c.context=y,c.props=v,c.__P=e,c.__g&=-5,be=$.__r,Ae=g?25:0;do c.__g&=-9,be&&be(t),l=c.render(c.props,c.state=c.__s,c.context);while(8&c.__g&&++Ae<25);g&&(ie.push.apply(c.__h,c.__k),c.__k=[]),c.state=c.__s,c.getChildContext&&(s=J({},s,c.getChildContext())),g&&n.__c&&c.getSnapshotBeforeUpdate&&(b=c.getSnapshotBeforeUpdate(f,x)),ee=l&&l.type===le&&l.key==null?l.props.children:l,v.__P&&(l=r,i=(e=v.__P).namespaceURI,d=o=null,n.props&&n.props.__P!=e&&(n.__k.some(function(R){R&&Te(R,R)}),n.__k=null),r=n.__k?H(n,0):null),r=Je(e,we(ee)?ee:[ee],t,n,s,i,o,a,r,d,_),v.__P&&(t.__e=null,r=l),t.__u&=-161,m&&m.some(V),c.__h.length&&a.push(c),1&c.__g&&(c.__g&=-4)}catch(R){if(a.length=p,t.__v=null,d||o)if(R&&R.then){if(t.__u|=128|d,o){for(~(F=o.indexOf(r||void 0))||(F=o.length);(B=o[F-1])&&B.nodeType==8;)F--;for(;F<o.length;F++)if(B=o[F])if(o[F]=null,W){if(B==je)break}else{if(B.nodeType!=8)break;B.data.startsWith("$s")&&(je=se(W=B))}}if(!W){for(;r&&r.nodeType==8&&r.nextSibling;)r=r.nextSibling;W=r}(l=se(W=t.__c.__z||(t.__c.__z=W)))?(t.__e=W,r=l):t.__e=r,r=r&&r.nextSibling}else o&&o.some(V);else t.__e=n.__e;t.__k||(t.__k=n.__k||[]),R&&R.then||Ke(t),$.__e(R,t,n)}}else r=t.__e=Ht(n.__e,t,n,s,i,o,a,d,_,e);return(l=$.diffed)&&l(t),r}function se(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))n++;else if(e.data.startsWith("/$s")&&!--n)return e}t&&t.push(e)}}function Ke(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Ke))}function ze(e,t,n){for(var s=0;s<n.length;)Se(n[s++],n[s++],n[s++]);$.__c&&$.__c(t,e),e.some(function(i){try{e=i.__h,i.__h=[],e.some(function(o){o.call(i)})}catch(o){$.__e(o,i.__v)}})}function Ht(e,t,n,s,i,o,a,r,d,_){var l,m,p,c,f,x,b,v,g=n.props||ae,S=t.props,y=t.type;if(y=="svg"?i="http://www.w3.org/2000/svg":y=="math"?i="http://www.w3.org/1998/Math/MathML":i||(i="http://www.w3.org/1999/xhtml"),o){for(l=0;l<o.length;l++)if((f=o[l])&&(y?f.localName==y:f.nodeType==3)){e=f,o[l]=null;break}}if(!e){if(v=_.ownerDocument||document,!y)return v.createTextNode(S);e=v.createElementNS(i,y,S.is?S:_),r&&($.__m&&$.__m(t,o),r=!1),o=null}if(y){if(_=y=="template"&&e.content||e,o=y=="textarea"&&S.defaultValue!=null?null:o&&ke.call(_.childNodes),!r&&o)for(g={},l=0;l<e.attributes.length;l++)g[(f=e.attributes[l]).name]=f.value;for(l in g)f=g[l],l=="dangerouslySetInnerHTML"?p=f:l=="children"||l in S||l=="value"&&"defaultValue"in S||l=="checked"&&"defaultChecked"in S||te(e,l,null,f,i);for(l in S)f=S[l],l=="children"?c=f:l=="dangerouslySetInnerHTML"?m=f:l=="value"?x=f:l=="checked"?b=f:r&&typeof f!="function"||g[l]===f||te(e,l,f,g[l],i);m?(r||p&&(m.__html==p.__html||m.__html==e.innerHTML)||(e.innerHTML=m.__html),t.__k=[]):(p&&(e.textContent=""),(y=="foreignObject"||i=="http://www.w3.org/1998/Math/MathML"&&jt.test(y))&&(i="http://www.w3.org/1999/xhtml"),Je(_,we(c)?c:[c],t,n,s,i,o,a,o?o[0]:n.__k&&H(n,0),r,d),o&&o.some(V)),r&&y!="textarea"||(l="value",y=="progress"&&x==null?e.removeAttribute(l):x==null||x===e[l]&&(y!="progress"||x)||te(e,l,x,g[l],i),l="checked",b!=null&&b!=e[l]&&te(e,l,b,g[l],i))}else g===S||r&&e.data==S||(e.data=S);return e}function Se(e,t,n,s){try{typeof e=="function"?t?t.__x=e(t)||1:s&&(s=s.__c||s.__e)&&(t=s.__x)&&(s.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(i){$.__e(i,n)}}function Te(e,t,n){var s,i,o,a;if($.unmount&&$.unmount(e),!(s=e.ref)||s.current&&s.current!=e.__e||Se(s,null,t,e),s=e.__c){if(s.componentWillUnmount)try{s.componentWillUnmount()}catch(r){$.__e(r,t)}s.__P=s.__n=null}if(s=e.__k)for(a=0;a<s.length;a++)s[a]&&Te(s[a],t,typeof e.type!="function"||n&&!e.props.__P);!n&&(s=e.__c)&&(s=s.__z)&&(i=se(s,o=[]))&&(s==e.__e&&o.some(V),V(i),V(s)),n||V(e.__e),e.__e=e.__c=e.__=null}function Wt(e,t,n){return this.constructor(e,n)}function Ge(e,t){var n,s,i,o;$.__&&$.__(e,t),t.nodeType==9&&(t=t.documentElement),s=(n=e&&32&e.__u)?null:t.__k,t.__k=K(le,{children:[e]}),i=[],o=[],xe(t,t.__k,s||ae,ae,t.namespaceURI,s?null:t.firstChild?ke.call(t.childNodes):null,i,s?s.__e:t.firstChild,n,o),ze(i,t.__k,o),t.__k.props.children=null}$={__e:function(e,t,n,s){for(var i,o,a;t=t.__;)if((i=t.__c)&&!(1&i.__g)){i.__g|=4;try{if((a=(o=i.constructor)&&o.getDerivedStateFromError)&&i.setState(o.getDerivedStateFromError(e)),i.componentDidCatch&&(i.componentDidCatch(e,s||{}),a=1),a&&8&i.__g)return void(i.__g|=2)}catch(r){e=r}}throw re=0,e}},Fe=0,Dt=function(e){return e!=null&&e.constructor===z},oe.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=J({},this.state)),typeof e=="function"&&(e=e(J({},n),this.props)),e&&(J(n,e),this.__v&&(t&&this.__k.push(t),Ne(this)))},oe.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),Ne(this))},oe.prototype.render=le,I=[],re=0,Ie=function(e,t){return e.__v.__b-t.__v.__b},ne=Symbol(),He=/(PointerCapture)$|Capture$/i,ye=0,ve={},At=0;var X,k,Ee,Xe,Ce=Object.is,Y=0,rt=[],Pe=[],w=$,Ye=w.__b,Qe=w.__r,Ze=w.diffed,et=w.__c,tt=w.unmount,nt=w.__;function Me(e,t){w.__h&&w.__h(k,e,Y||t),Y=0;var n=k.__H||(k.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function h(e){return Y=1,Bt(dt,e)}function Bt(e,t,n){var s=Me(X++,2);if(s.t=e,!s.__c&&(s.__=[n?n(t):dt(void 0,t),function(o){var a=(s.__N||s.__)[0],r=s.t(a,o);Ce(a,r)||(s.__N=[r,s.__[1]],s.__c.setState({}))}],s.__c=k,!k.__f)){k.__f=!0;var i=k.shouldComponentUpdate;k.shouldComponentUpdate=function(o,a,r){var d=this.__H;if(!d)return!0;var _=!1,l=this.props!=o;if(d.__.some(function(p){p.__N&&(_=!0,Ce(p.__[0],p.__N[0])||(l=!0))}),i){var m=i.call(this,o,a,r);return _?m||l:m}return!_||l}}return s.__}function q(e,t){var n=Me(X++,3);!w.__s&&ct(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,k.__H.__h.push(n))}function at(e){return Y=5,it(function(){return{current:e}},[])}function it(e,t){var n=Me(X++,7);return ct(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function lt(e,t){return Y=8,it(function(){return e},t)}function Vt(){var e;do{for(;e=Pe.shift();)try{G(e)}catch(n){w.__e(n,{__:(e=e.__P)&&e.__v})}for(;e=rt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(G),t.__h.some(Oe),t.__h=[]}catch(n){t.__h=[],w.__e(n,e.__v)}}}while(Pe.length)}w.__b=function(e){k=null,Ye&&Ye(e)},w.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),nt&&nt(e,t)},w.__r=function(e){Qe&&Qe(e),X=0;var t=(k=e.__c).__H;t&&(Ee==k?k.__h=[]:(t.__h.some(G),t.__h.some(Oe),X=0),t.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),Ee=k},w.diffed=function(e){Ze&&Ze(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&st(rt.push(t)),t.__H.__.some(function(n){n.u&&(n.__H=n.u)})),Ee=k=null},w.__c=function(e,t){t.some(function(n){try{n.__h.some(G),n.__h=n.__h.filter(function(s){return!s.__||Oe(s)})}catch(s){n.__h=[function(){throw s}]}}),et&&et(e,t)},w.unmount=function(e){tt&&tt(e);var t,n,s=e.__c;s&&s.__H&&(s.__H.__.some(function(i){try{if(i.__P&&i.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}i.__P=n,st(Pe.push(i))}else G(i)}catch(o){t=o}}),s.__H=void 0,t&&w.__e(t,s.__v))};var ot=typeof requestAnimationFrame=="function";function Jt(e){var t,n=function(){clearTimeout(s),ot&&cancelAnimationFrame(t),setTimeout(e)},s=setTimeout(n,35);ot&&(t=requestAnimationFrame(n))}function st(e){e!=1&&Xe==w.requestAnimationFrame||((Xe=w.requestAnimationFrame)||Jt)(Vt)}function G(e){var t=k,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),k=t}function Oe(e){var t=k;e.__c=e.__(),k=t}function ct(e,t){return!e||e.length!=t.length||t.some(function(n,s){return!Ce(n,e[s])})}function dt(e,t){return typeof t=="function"?t(e):t}var Re="console.apiKey",ut=new URL(".",location.href).href.replace(/\/$/,""),ue=()=>sessionStorage.getItem(Re)??"",_e=e=>e?sessionStorage.setItem(Re,e):sessionStorage.removeItem(Re),Q=class extends Error{constructor(n,s,i){super(s);this.status=n;this.code=i}status;code};async function _t(e){let t=await e.json().catch(()=>{});return new Q(e.status,t?.error?.message??`${e.status} ${e.statusText}`,t?.error?.code??"http_error")}async function mt(e,t,n,s){let i={authorization:`Bearer ${ue()}`,accept:s};n!==void 0&&(i["content-type"]="application/json"),e==="POST"&&(i["idempotency-key"]=crypto.randomUUID());let o=await fetch(ut+t,{method:e,headers:i,body:n===void 0?void 0:JSON.stringify(n)});if(!o.ok)throw await _t(o);return o}async function T(e,t,n){let s=await mt(e,t,n,"application/json");if(s.status!==204)return s.json()}var C=e=>T("GET",e);async function Le(e,t,n){let s=await(await mt("GET",e,void 0,n)).text(),i=URL.createObjectURL(new Blob([s],{type:n}));Object.assign(document.createElement("a"),{href:i,download:t}).click(),setTimeout(()=>URL.revokeObjectURL(i),1e3)}var qt=4,ce=0,de=[];function Kt(e){return ce<qt?(ce+=1,Promise.resolve()):new Promise((t,n)=>{let s=()=>{e.removeEventListener("abort",i),ce+=1,t()},i=()=>{de.splice(de.indexOf(s),1),n(e.reason)};de.push(s),e.addEventListener("abort",i,{once:!0})})}function zt(){ce-=1,de.shift()?.()}async function pt(e,t,n){await Kt(n);try{await Gt(e,t,n)}finally{zt()}}async function Gt(e,t,n){let s=await fetch(ut+e,{headers:{authorization:`Bearer ${ue()}`,accept:"text/event-stream"},signal:n});if(!s.ok||!s.body)throw await _t(s);let i=s.body.pipeThrough(new TextDecoderStream).getReader(),o="";for(;;){let{value:a,done:r}=await i.read();if(r)return;o+=a.replace(/\r\n/g,`
`);for(let d=o.indexOf(`

`);d>=0;d=o.indexOf(`

`)){let _=o.slice(0,d);o=o.slice(d+2);let l="message",m=[];for(let p of _.split(`
`))p.startsWith("event:")?l=p.slice(6).trim():p.startsWith("data:")&&m.push(p.slice(5).trimStart());m.length&&t(l,JSON.parse(m.join(`
`)))}}}var ht=function(e,t,n,s){var i;t[0]=0;for(var o=1;o<t.length;o++){var a=t[o++],r=t[o]?(t[0]|=a?1:2,n[t[o++]]):t[++o];a===3?s[0]=r:a===4?s[1]=Object.assign(s[1]||{},r):a===5?(s[1]=s[1]||{})[t[++o]]=r:a===6?s[1][t[++o]]+=r+"":a?(i=e.apply(r,ht(e,r,n,["",null])),s.push(i),r[0]?t[0]|=2:(t[o-2]=0,t[o]=i)):s.push(r)}return s},ft=new Map;function gt(e){var t=ft.get(this);return t||(t=new Map,ft.set(this,t)),(t=ht(this,t.get(e)||(t.set(e,t=(function(n){for(var s,i,o=1,a="",r="",d=[0],_=function(p){o===1&&(p||(a=a.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?d.push(0,p,a):o===3&&(p||a)?(d.push(3,p,a),o=2):o===2&&a==="..."&&p?d.push(4,p,0):o===2&&a&&!p?d.push(5,0,!0,a):o>=5&&((a||!p&&o===5)&&(d.push(o,0,a,i),o=6),p&&(d.push(o,p,0,i),o=6)),a=""},l=0;l<n.length;l++){l&&(o===1&&_(),_(l));for(var m=0;m<n[l].length;m++)s=n[l][m],o===1?s==="<"?(_(),d=[d],o=3):a+=s:o===4?a==="--"&&s===">"?(o=1,a=""):a=s+a[0]:r?s===r?r="":a+=s:s==='"'||s==="'"?r=s:s===">"?(_(),o=1):o&&(s==="="?(o=5,i=a,a=""):s==="/"&&(o<5||n[l][m+1]===">")?(_(),o===3&&(d=d[0]),o=d,(d=d[0]).push(2,0,o),o=0):s===" "||s==="	"||s===`
`||s==="\r"?(_(),o=2):a+=s),o===3&&a==="!--"&&(o=4,d=d[0])}return _(),d})(e)),t),arguments,[])).length>1?t:t[0]}var u=gt.bind(We);function A(e,t=[]){let[n,s]=h({loading:!0}),[i,o]=h(0);return q(()=>{let a=!0;return s(r=>({...r,loading:!0})),e().then(r=>a&&s({data:r,loading:!1}),r=>a&&s({error:P(r),loading:!1})),()=>{a=!1}},[...t,i]),{...n,reload:lt(()=>o(a=>a+1),[])}}var P=e=>e instanceof Q?`${e.message} (${e.code})`:e instanceof Error?e.message:String(e),E=({error:e})=>e?u`<p class="error" role="alert">${e}</p>`:null;function M({loaded:e,empty:t,children:n}){return e.error?u`<${E} error=${e.error} />`:e.loading&&e.data===void 0?u`<p class="muted">Loading…</p>`:t?u`<p class="empty">${t}</p>`:n}var L=e=>e?new Date(e).toLocaleString():"\u2014",O=e=>e==null?"\u2014":e.toLocaleString(),Z=20;function j(e,t=[]){let n=e.includes("?")?"&":"?",[s,i]=h({items:[]}),o=A(async()=>{let m=await C(`${e}${n}limit=${Z}`);return i({items:[],next:bt(m,Z)}),m},t),[a,r]=h(),d=[...o.data?.items??[],...s.items],_=s.next,l=_===void 0?void 0:()=>{let m=typeof _=="number"?`offset=${_}`:`cursor=${encodeURIComponent(_)}`;C(`${e}${n}limit=${Z}&${m}`).then(p=>i(c=>({items:[...c.items,...p.items],next:bt(p,(typeof _=="number"?_:0)+Z)})),p=>r(P(p)))};return{...o,error:o.error??a,data:o.data&&{items:d,total:o.data.total},more:l}}function bt(e,t){return"next_cursor"in e?e.next_cursor??void 0:e.total!==void 0&&t<e.total?t:void 0}var N=({list:e,noun:t})=>{let n=e.data?.items.length??0;if(!e.more)return n>Z?u`<p class="small muted">All ${n} ${t} shown.</p>`:null;let s=e.data?.total===void 0?"":` of ${e.data.total}`;return u`<div class="row more"><span class="small muted">${n}${s} ${t} shown</span>
    <button type="button" onClick=${e.more}>Show more ${t}</button></div>`},Xt=new Map([["bd_job","Enrichment jobs"],["moderation_community","Community moderation"],["growth_run","Growth runs"],["growth_plan","Growth plans"],["intelligence_result","Intelligence expansions"],["vc-shortlist-v1","VC shortlist"],["builder-discovery-v1","Builder discovery"],["company-people-discovery-v1","Company people discovery"],["warm-intro-paths-v1","Warm intro paths"],["kol-discovery-v1","KOL discovery"],["user-prospect-v1","User prospects"],["hackathon-builder-v1","Hackathon builders"]]),me=e=>{let t=Xt.get(e);if(t)return t;let n=e.replace(/-v\d+$/,"").replace(/[_-]+/g," ").trim();return n.charAt(0).toUpperCase()+n.slice(1)};var $t=new Set(["completed","failed","cancelled"]),Yt=2e3;function Qt({job:e,onChange:t}){let[n,s]=h(e),[i,o]=h(),[a,r]=h(0);q(()=>{if($t.has(e.status))return;let l=new AbortController,m=!1,p;return pt(`/bd/jobs/${e.job_id}/events`,(c,f)=>{s(f),c==="complete"&&(m=!0,t())},l.signal).then(()=>{!m&&!l.signal.aborted&&(p=setTimeout(()=>r(c=>c+1),Yt))},c=>l.signal.aborted||o(P(c))),()=>{l.abort(),clearTimeout(p)}},[e.job_id,e.status,a]);let d=l=>l().then(t,m=>o(P(m))),_=!$t.has(n.status);return u`
    <li class="job" data-status=${n.status}>
      <div class="row spread">
        <strong>${e.preset}</strong>
        <span class="badge ${n.status}">${n.status}</span>
      </div>
      <progress max="100" value=${n.progress_percent} aria-label=${`Job ${e.job_id} progress`}>${n.progress_percent}%</progress>
      <div class="row spread small"><span class="pct">${n.progress_percent} %</span><span>${n.progress_message}</span></div>
      <div class="small muted">${L(e.created_at)} · ${e.origin} · reserved ${O(e.credits_reserved)}, charged ${O(e.credits_charged)} · <code>${e.job_id}</code></div>
      ${e.error_message&&u`<p class="error">${e.error_message}</p>`}
      ${Object.keys(e.stats.rows_by_source).length>0&&u`<div class="small sources">Rows by source: ${Object.entries(e.stats.rows_by_source).map(([l,m])=>`${l} ${O(m)}`).join(", ")}</div>`}
      ${e.warnings.length>0&&u`<ul class="small warnings">${e.warnings.map(l=>u`<li>${l}</li>`)}</ul>`}
      <div class="row">
        ${_&&u`<button onClick=${()=>d(()=>T("POST",`/bd/jobs/${e.job_id}/cancel`))}>Cancel</button>`}
        ${n.status==="completed"&&u`
          <button onClick=${()=>d(()=>Le(`/bd/jobs/${e.job_id}/export?format=csv`,`job-${e.job_id}.csv`,"text/csv"))}>Export CSV</button>
          <button onClick=${()=>d(()=>Le(`/bd/jobs/${e.job_id}/export?format=json`,`job-${e.job_id}.json`,"application/json"))}>Export JSON</button>`}
      </div>
      <${E} error=${i} />
    </li>`}var Zt=e=>({preset:"full_pipeline",input_assets:{companies:Array.from({length:e},(t,n)=>({company_name:`Demo Company ${n+1}`,domain:`demo-company-${n+1}.io`}))}});function vt(){let e=j("/bd/jobs"),t=A(()=>C("/subscriptions/status")),n=t.data?t.data.tier==="pro"&&t.data.status==="active":!0,[s,i]=h(),[o,a]=h(20);return u`
    <section aria-labelledby="jobs-h">
      <h2 id="jobs-h">Enrichment jobs</h2>
      <form class="row" onSubmit=${d=>{d.preventDefault(),i(void 0),T("POST","/bd/jobs",Zt(o)).then(e.reload,_=>i(P(_)))}}>
        <label>Sample companies <input type="number" min="1" max="500" value=${o} onInput=${d=>a(Number(d.currentTarget.value))} /></label>
        <button type="submit" disabled=${!n} aria-describedby=${n?void 0:"jobs-plan"}>Start a sample job</button>
        <button type="button" onClick=${e.reload}>Refresh</button>
      </form>
      ${!n&&u`<p class="note" id="jobs-plan">Jobs need an active pro subscription; this account is on the ${t.data?.tier} plan (${t.data?.status}). Upgrade with <code>POST /subscriptions/checkout-session</code>, then start a sample job here.</p>`}
      <${E} error=${s} />
      <${M} loaded=${e} empty=${e.data?.items.length===0&&"No jobs yet. Start a sample job above, or POST /bd/jobs with your own companies; it shows here with its progress."}>
        <ul class="list">${e.data?.items.map(d=>u`<${Qt} key=${d.job_id+d.status} job=${d} onChange=${e.reload} />`)}</ul>
        <${N} list=${e} noun="jobs" />
      <//>
    </section>`}var yt={telegram:{label:"Telegram",captcha:!0,connect:({token:e})=>[{text:"Add the operator's bot to your group as an administrator (delete messages, ban users)."},{text:"Alerts elsewhere (optional, first): send this in the chat that should receive them (a private chat with the bot or a moderators\u2019 group):",command:`/alerts ${e}`},{text:"Then, as an administrator, send this in the group:",command:`/activate ${e}`}]},discord:{label:"Discord",captcha:!1,connect:({token:e,install_url:t})=>[t?{text:"Invite the bot and pick your server:",link:{href:t,label:"Add the bot to Discord"}}:{text:"This deployment has no Discord application configured (no invite link): ask its operator."},{text:"Then a member with Manage Server runs:",command:`/activate token:${e}`},{text:"/alerts in a channel makes it the alert channel."}]},reddit:{label:"Reddit",captcha:!1,connect:({token:e})=>[{text:"In your subreddit's mod tools, invite the operator's bot as a moderator with Manage Posts & Comments, Manage Users and Manage Mod Mail."},{text:"Then, as a moderator of the subreddit, send the bot a private message (your subreddit in place of r/yoursub):",command:`/activate ${e} r/yoursub`},{text:"Within a minute the bot accepts the invitation and answers your message."}]},x:{label:"X",captcha:!1,connect:({authorize_url:e})=>[e?{text:"Open this link while signed in to the X account to moderate (usable once, within an hour; reload for a new one):",link:{href:e,label:"Authorize on X"}}:{text:"This deployment has no X app configured (no authorization link): ask its operator."}]},crisp:{label:"Crisp",captcha:!0,connect:({token:e})=>[{text:"Install the operator's plugin on the website (Crisp dashboard \u2192 Plugins)."},{text:"Then, as an operator of the website, send this in any conversation:",command:`/activate ${e}`}]}},pe=e=>Object.hasOwn(yt,e)?yt[e]:{label:e,captcha:!1,connect:()=>[{text:"See docs/guide in the repository for how to connect it."}]};var U="/integrations/moderation",St=e=>`${Math.round(e*100)}%`,wt={delete:"Removed",warn:"Warned",mute:"Muted",ban:"Banned"},en=e=>Object.hasOwn(wt,e)?wt[e]:e,kt={delivered:"applied on the platform",pending:"being applied",failed:"the platform refused it",not_configured:"not sent: the platform is not set up on this deployment",observe:"observe mode: nothing sent"},tn=e=>(Object.hasOwn(kt,e.status)?kt[e.status]:e.status)+(e.error?` (${e.error})`:"");function ge(){let[e,t]=h();return{error:e,act:(s,i)=>{t(void 0),s().then(i,o=>t(P(o)))}}}var nn=({step:e})=>u`<li>
  ${e.text}
  ${e.command&&u`<div><code class="command">${e.command}</code></div>`}
  ${e.link&&u`<div><a href=${e.link.href} target="_blank" rel="noopener noreferrer">${e.link.label}</a></div>`}
</li>`;function on({community:e,connected:t,onFresh:n}){let s=pe(e.community_type),{error:i,act:o}=ge(),[a,r]=h(!1),d=e.activation_token,_=d&&(!t||a)?s.connect({...e,token:d}):[];return u`
    <details class="part" open=${!t}>
      <summary>${t?`Connect elsewhere on ${s.label}, or name an alert chat`:`Connect on ${s.label}`}</summary>
      ${_.length>0&&u`<ol class="steps">${_.map(l=>u`<${nn} step=${l} />`)}</ol>`}
      ${t&&!a&&u`<p class="small">Its token has bound it. A fresh token binds it somewhere else or names an alert chat; the old token stops working.</p>`}
      <button type="button" onClick=${()=>o(()=>T("POST",`${U}/communities/${e.id}/activation-token`),l=>{r(!0),n(l)})}>New activation token</button>
      <${E} error=${i} />
    </details>`}function sn({community:e,entry:t,onChange:n}){let{error:s,act:i}=ge(),[o,a]=h(!1),r=()=>t.undoable?i(()=>T("POST",`${U}/communities/${e.id}/audit-logs/${t.id}/undo`),n):i(()=>T("POST",`${U}/communities/${e.id}/examples`,{examples:[{text:t.message_excerpt,label:"ham"}]}),()=>a(!0));return u`<li class="review">
    <div class="row spread"><strong>${en(t.action)} · ${t.username}</strong><span class="small muted">${L(t.at)}</span></div>
    <div class="small">${t.score===null?t.reason:u`Score <b>${St(t.score)}</b> · ${t.reason}`}${t.delivery?` \xB7 ${tn(t.delivery)}`:""}</div>
    ${t.signals.length>0&&u`<ul class="signals small" aria-label="Signals">${t.signals.map(d=>u`<li>${d.label}</li>`)}</ul>`}
    ${t.message_excerpt&&u`<blockquote class="small">${t.message_excerpt}</blockquote>`}
    ${t.undo?u`<div class="small done">Undone ${L(t.undo.at)} (${t.undo.status}), taught as not spam</div>`:o?u`<div class="small done">Taught as not spam${t.action==="warn"?" (a warning sent cannot be taken back)":" (the platform cannot restore it)"}</div>`:(t.undoable||t.message_excerpt)&&u`<div class="row"><button type="button" onClick=${r} aria-label=${`Not spam: ${t.action} of ${t.username}`}>Not spam</button>
            <span class="small muted">${t.undoable?`undoes the ${t.action} and teaches the message`:"teaches the message (this action cannot be undone here)"}</span></div>`}
    <${E} error=${s} />
  </li>`}function rn({community:e}){let{error:t,act:n}=ge(),[s,i]=h(""),[o,a]=h(),[r,d]=h(),_=`try-${e.id}`,l=p=>{p.preventDefault();let c=new FormData(p.currentTarget);d(void 0),n(()=>T("POST",`${U}/communities/${e.id}/check`,{messages:[{text:s,is_new_member:c.get("new")==="on"}]}),f=>a(f.results[0]))},m=p=>n(()=>T("POST",`${U}/communities/${e.id}/examples`,{examples:[{text:s,label:p}]}),()=>d(p==="spam"?"Taught as spam":"Taught as not spam"));return u`
    <details class="part">
      <summary>Try a message</summary>
      <form class="grid" onSubmit=${l}>
        <label for=${_}>Message</label>
        <textarea id=${_} rows="3" required maxlength="4096" value=${s} onInput=${p=>{i(p.currentTarget.value),a(void 0)}}></textarea>
        <label class="check"><input type="checkbox" name="new" /> From a new member</label>
        <div class="row"><button type="submit">Check</button></div>
      </form>
      ${o&&u`<div class="verdict ${o.verdict}" role="status" data-testid="verdict">
          <strong>${o.verdict==="spam"?`Spam: would ${o.action}`:"Allowed"}</strong> · score ${St(o.score)}
          ${o.signals.length>0&&u`<ul class="signals small" aria-label="Signals">${o.signals.map(p=>u`<li>${p.label}</li>`)}</ul>`}
          <div class="row">
            <button type="button" onClick=${()=>m("spam")}>Mark as spam</button>
            <button type="button" class="quiet" onClick=${()=>m("ham")}>Mark as not spam</button>
          </div>
          ${r&&u`<p class="small done">${r}: check again to see what it learned.</p>`}
        </div>`}
      <${E} error=${t} />
    </details>`}var fe=e=>e.join(`
`),he=e=>String(e??"").split(/[\n,]/).map(t=>t.trim()).filter(Boolean);function an({community:e}){let[t,n]=h(!1);return u`
    <details class="part" onToggle=${s=>s.currentTarget.open&&n(!0)}>
      <summary>Rules</summary>
      ${t&&u`<${ln} community=${e} />`}
    </details>`}function ln({community:e}){let t=A(()=>C(`${U}/communities/${e.id}/rules`),[e.id]),{error:n,act:s}=ge(),[i,o]=h(!1),a=pe(e.community_type).captcha,r=l=>`${l}-${e.id}`,d=l=>{l.preventDefault();let m=new FormData(l.currentTarget);o(!1);let p={mode:m.get("mode"),sensitivity:m.get("sensitivity"),official_domains:he(m.get("official_domains")),official_handles:he(m.get("official_handles")),link_allowlist:he(m.get("link_allowlist")),blocked_words:he(m.get("blocked_words")),warn_limit:Number(m.get("warn_limit")),new_member_days:Number(m.get("new_member_days")),...a?{captcha:{enabled:m.get("captcha")==="on",timeout_seconds:Number(m.get("captcha_timeout"))}}:{}};s(()=>T("PUT",`${U}/communities/${e.id}/rules`,p),()=>{o(!0),t.reload()})},_=t.data;return u`
    <div>
      ${_&&u`<p class="small muted">Now: ${_.mode}, ${_.sensitivity} sensitivity.</p>`}
      <${M} loaded=${t}>${_&&u`<form class="grid rules" onSubmit=${d} onInput=${()=>o(!1)}>
          <label for=${r("mode")}>Mode</label>
          <select id=${r("mode")} name="mode" value=${_.mode}>
            <option value="enforce">enforce: act on the platform</option>
            <option value="observe">observe: decide and log only</option>
          </select>
          <label for=${r("sensitivity")}>Sensitivity</label>
          <select id=${r("sensitivity")} name="sensitivity" value=${_.sensitivity}>
            <option value="low">low: act only when sure</option>
            <option value="medium">medium</option>
            <option value="high">high: act soonest</option>
          </select>
          <label for=${r("official_domains")}>Official domains <span class="small muted">(one a line: links to them never count, look-alikes do)</span></label>
          <textarea id=${r("official_domains")} name="official_domains" rows="2">${fe(_.official_domains)}</textarea>
          <label for=${r("official_handles")}>Official handles <span class="small muted">(one a line, e.g. @project)</span></label>
          <textarea id=${r("official_handles")} name="official_handles" rows="2">${fe(_.official_handles)}</textarea>
          <label for=${r("link_allowlist")}>Allowed link domains <span class="small muted">(one a line)</span></label>
          <textarea id=${r("link_allowlist")} name="link_allowlist" rows="2">${fe(_.link_allowlist)}</textarea>
          <label for=${r("blocked_words")}>Blocked words <span class="small muted">(one a line)</span></label>
          <textarea id=${r("blocked_words")} name="blocked_words" rows="2">${fe(_.blocked_words)}</textarea>
          <label for=${r("warn_limit")}>Warnings before a mute</label>
          <input id=${r("warn_limit")} name="warn_limit" type="number" min="0" max="10" value=${_.warn_limit} />
          <label for=${r("new_member_days")}>Days a member counts as new</label>
          <input id=${r("new_member_days")} name="new_member_days" type="number" min="0" max="365" value=${_.new_member_days} />
          ${a&&u`<label class="check"><input type="checkbox" name="captcha" checked=${_.captcha.enabled} /> Captcha for new members</label>
            <label for=${r("captcha_timeout")}>Seconds to answer the captcha</label>
            <input id=${r("captcha_timeout")} name="captcha_timeout" type="number" min="30" max="86400" value=${_.captcha.timeout_seconds} />`}
          <div class="row"><button type="submit">Save rules</button>${i&&u`<span class="done" role="status">Saved</span>`}</div>
        </form>`}<//>
      <${E} error=${n} />
    </div>`}var xt={connected:"Connected",pending_activation:"Waiting to be connected",disconnected:"Disconnected (expired)",failing:"Connected, but the platform cannot be read"};function cn({community:e}){let[t,n]=h(e),s=A(()=>C(`${U}/status?community_id=${t.id}&include_logs=50`),[t.id]),i=pe(t.community_type),o=s.data,a=o?Object.values(o.metrics.actions).reduce((_,l)=>_+l,0):0,r=[...o?.audit_logs??[]].sort((_,l)=>l.at.localeCompare(_.at)),d=o?.connection_state??t.status;return u`
    <article class="panel community" aria-label=${t.name}>
      <div class="row spread">
        <h3>${t.name}</h3>
        <span class="row"><span class="badge platform">${i.label}</span><span class="badge ${d}">${Object.hasOwn(xt,d)?xt[d]:d}</span></span>
      </div>
      ${o?.connection_error&&u`<p class="small error">${o.connection_error}</p>`}
      <${on} community=${t} connected=${d==="connected"||d==="failing"} onFresh=${n} />
      <${M} loaded=${s}>${o&&u`
        <dl class="cards">
          <div><dt>Messages scanned</dt><dd>${O(o.metrics.messages_scanned)}</dd></div>
          <div><dt>Removed or acted on</dt><dd>${O(a)}</dd></div>
          <div><dt>Undone (wrongly removed)</dt><dd>${O(o.metrics.actions_undone)}${a>0?` (${(100*o.metrics.actions_undone/a).toFixed(1)}%)`:""}</dd></div>
          <div><dt>Examples taught</dt><dd>${O(o.metrics.examples_taught)}</dd></div>
        </dl>
        <h4>Review, newest first</h4>
        ${r.length===0?u`<p class="empty">No actions yet. What the bot removes, mutes or bans shows here with its score and signals, to correct in one click.</p>`:u`<ul class="list">${r.map(_=>u`<${sn} key=${_.id} community=${t} entry=${_} onChange=${s.reload} />`)}</ul>`}`}<//>
      <${rn} community=${t} />
      <${an} community=${t} />
    </article>`}function Tt(){let e=j(`${U}/communities`);return u`
    <section aria-labelledby="mod-h">
      <h2 id="mod-h">Moderation</h2>
      <${M} loaded=${e} empty=${e.data?.items.length===0&&"No communities yet. Create one (POST /integrations/moderation/communities with a name, project_name and type); it shows here with how to connect it."}>
        ${e.data?.items.map(t=>u`<${cn} key=${t.id} community=${t} />`)}
        <${N} list=${e} noun="communities" />
      <//>
    </section>`}function Et({title:e,path:t,canDelete:n,empty:s}){let i=j(t),[o,a]=h(),r=at(null);q(()=>{!o||!r.current||(r.current.scrollIntoView({block:"start"}),r.current.focus())},[o]);let[d,_]=h(),l=m=>_(P(m));return u`
    <section aria-label=${e}>
      <h2>${e}</h2>
      <${E} error=${d} />
      <${M} loaded=${i} empty=${i.data?.items.length===0&&s}>
        <ul class="list">${i.data?.items.map(m=>u`<li class="row spread">
          <span>${m.title??(m.tool_name&&me(m.tool_name))??m.id} <span class="small muted">${L(m.created_at)}</span></span>
          <span class="row">
            <button onClick=${()=>C(`${t}/${m.id}`).then(p=>a({id:m.id,body:p}),l)} aria-label=${`Open ${m.title??m.id}`}>Open</button>
            ${n&&u`<button onClick=${()=>confirm("Delete it?")&&T("DELETE",`${t}/${m.id}`).then(i.reload,l)}>Delete</button>`}
          </span></li>`)}</ul>
        <${N} list=${i} noun=${e.toLowerCase()} />
      <//>
      ${o&&u`<div class="panel" ref=${r} tabindex="-1" role="region" aria-label=${`Opened: ${o.id}`}><div class="row spread"><strong>${o.id}</strong><button onClick=${()=>a(void 0)}>Close</button></div>
        <pre tabindex="0">${JSON.stringify(o.body,null,2)}</pre></div>`}
    </section>`}var Ct=()=>u`
  <${Et} title="Stored results" path="/results" canDelete=${!1} empty="No stored results yet. Tool calls and finished jobs store their results here." />
  <${Et} title="Chats" path="/chats" canDelete=${!0} empty="No chats yet. Create one with POST /chats and pass its chat_id when you start a job." />`;function Pt({days:e}){let o=Math.max(1,...e.map(_=>_.credits)),a=600/Math.max(1,e.length),r=Math.max(1,a*.75),d=e.reduce((_,l)=>_+l.credits,0);return u`
    <figure class="chart">
      <svg viewBox="0 0 ${600} ${160}" role="img" aria-label=${`Credits used per day: ${d} over ${e.length} days, at most ${o} in a day`}>
        <line x1="0" x2=${600} y1=${159} y2=${159} class="axis" />
        ${e.map((_,l)=>{let m=155*_.credits/o;return u`<rect class="bar" x=${l*a+(a-r)/2} y=${159-m} width=${r} height=${m}><title>${_.date}: ${_.credits} credits</title></rect>`})}
      </svg>
      ${e.length?u`<figcaption class="row spread small muted"><span>${e[0].date}</span><span>highest ${o} a day</span><span>${e[e.length-1].date}</span></figcaption>`:null}
    </figure>`}function Ot(){let[e,t]=h(),n=A(()=>Promise.all([C("/users/me"),C("/subscriptions/status")])),s=A(()=>C(e?`/credits/usage?start_date=${e.start}&end_date=${e.end}`:"/credits/usage"),[e?.start,e?.end]),i=d=>{d.preventDefault();let _=new FormData(d.currentTarget);t({start:String(_.get("start")),end:String(_.get("end"))})},[o,a]=n.data??[],r=s.data;return u`
    <section aria-labelledby="balance-h">
      <h2 id="balance-h">Balance</h2>
      <${M} loaded=${n}>
        ${o&&a&&u`<dl class="cards">
          <div><dt>Credits available</dt><dd class="big" data-testid="balance">${O(a.credits_total)}</dd></div>
          <div><dt>Of which never expire</dt><dd>${O(o.permanent_credit_balance)}</dd></div>
          <div><dt>Plan</dt><dd>${a.tier} (${a.status})</dd></div>
          <div><dt>Monthly credits expire</dt><dd>${L(a.credits_expiring)}</dd></div>
        </dl>`}
      <//>
    </section>
    <section aria-labelledby="usage-h">
      <h2 id="usage-h">Usage</h2>
      <form class="row" onSubmit=${i}>
        <label>From <input type="date" name="start" value=${e?.start??s.data?.start_date} required /></label>
        <label>To <input type="date" name="end" value=${e?.end??s.data?.end_date} required /></label>
        <button type="submit">Show</button>
      </form>
      <${M} loaded=${s}>
        ${r&&u`
          <dl class="cards">
            <div><dt>Used</dt><dd class="big">${O(r.total_used)}</dd></div>
            <div><dt>Allowance</dt><dd>${r.allowance===null?"none":`${O(r.allowance)} (${r.percentage_used}% used)`}</dd></div>
            <div><dt>Per day</dt><dd>${r.average_daily}</dd></div>
            <div><dt>30 days at this rate</dt><dd>${r.projected===null?u`<span class="small muted">needs a range of 7 days or more</span>`:O(r.projected)}</dd></div>
          </dl>
          <h3>By day</h3>
          ${r.total_used===0?u`<p class="empty">No credits used from ${r.start_date} to ${r.end_date}. Start a job on the Jobs tab, or widen the dates.</p>`:u`<${Pt} days=${r.by_day} />`}
          <h3>By tool</h3>
          ${r.by_tool.length===0?u`<p class="empty">Nothing charged in this range yet.</p>`:u`
            <table><thead><tr><th scope="col">Tool</th><th scope="col" class="n">Credits</th></tr></thead>
              <tbody>${r.by_tool.map(d=>u`<tr><td>${me(d.tool_name)}</td><td class="n">${O(d.credits)}</td></tr>`)}</tbody></table>`}
        `}
      <//>
    </section>`}var Mt=["job.completed","job.failed","job.cancelled","growth_run.completed","growth_run.failed","community.activated","community.renewed","community.suspended","community.expired","credits.low"];var dn=({secret:e,onClose:t})=>u`
  <div class="panel note" role="status">
    <p>Signing secret for <code>${e.id}</code>, shown only now: store it where your receiver checks signatures.</p>
    <code class="secret" data-testid="webhook-secret">${e.value}</code>
    <div><button type="button" onClick=${t}>I stored it</button></div>
  </div>`;function un({endpoint:e,onSecret:t,onChange:n}){let[s,i]=h(),o=a=>{i(void 0),a().then(n,r=>i(P(r)))};return u`
  <li>
    <div class="row spread"><code>${e.url}</code><span class="badge ${e.status}">${e.status}</span></div>
    <div class="small muted">${e.event_types.join(", ")} · ${e.id}</div>
    ${e.disabled_reason&&u`<p class="small error">${e.disabled_reason}. It receives nothing more; register the URL again to resume.</p>`}
    <div class="row">
      <button type="button" aria-label=${`Rotate secret of ${e.url}`} onClick=${()=>confirm("Rotate the signing secret? The old one stops signing at once.")&&o(()=>T("POST",`/webhooks/endpoints/${e.id}/rotate-secret`).then(a=>t(a.secret)))}>Rotate secret</button>
      <button type="button" class="quiet" aria-label=${`Delete ${e.url}`} onClick=${()=>confirm("Delete this endpoint? It receives nothing more.")&&o(()=>T("DELETE",`/webhooks/endpoints/${e.id}`))}>Delete</button>
    </div>
    <${E} error=${s} />
  </li>`}function _n({onCreated:e}){let[t,n]=h();return u`
    <form class="panel grid" onSubmit=${i=>{i.preventDefault();let o=i.currentTarget,a=new FormData(o),r=a.getAll("event_types").map(String);n(void 0),T("POST","/webhooks/endpoints",{url:String(a.get("url")??"").trim(),...r.length?{event_types:r}:{}}).then(d=>{o.reset(),e(d)},d=>n(P(d)))}} aria-labelledby="new-ep-h">
      <h3 id="new-ep-h">Add an endpoint</h3>
      <label for="ep-url">URL</label>
      <input id="ep-url" name="url" type="url" required placeholder="https://example.com/hooks" />
      <fieldset><legend>Events (none ticked: all)</legend>
        <div class="checks">${Mt.map(i=>u`<label class="check"><input type="checkbox" name="event_types" value=${i} /> ${i}</label>`)}</div>
      </fieldset>
      <div><button type="submit">Add endpoint</button></div>
      <${E} error=${t} />
    </form>`}function Rt(){let e=j("/webhooks/endpoints"),t=j("/webhooks/deliveries"),[n,s]=h(),[i,o]=h(),a=r=>{s(void 0),T("POST",`/webhooks/deliveries/${r}/retry`).then(t.reload,d=>s(P(d)))};return u`
    <section aria-labelledby="ep-h">
      <h2 id="ep-h">Webhook endpoints</h2>
      ${i&&u`<${dn} secret=${i} onClose=${()=>o(void 0)} />`}
      <${M} loaded=${e} empty=${e.data?.items.length===0&&"No endpoints yet. Add one below to be called when a job completes, credits run low, a community is activated, \u2026"}>
        <ul class="list">${e.data?.items.map(r=>u`<${un} key=${r.id} endpoint=${r} onChange=${e.reload} onSecret=${d=>o({id:r.id,value:d})} />`)}</ul>
        <${N} list=${e} noun="endpoints" />
      <//>
      <${_n} onCreated=${r=>{o({id:r.id,value:r.secret}),e.reload()}} />
    </section>
    <section aria-labelledby="del-h">
      <h2 id="del-h">Recent deliveries</h2>
      <${E} error=${n} />
      <${M} loaded=${t} empty=${t.data?.items.length===0&&"No deliveries yet. They are listed here, with their answers, once an event is sent to one of your endpoints."}>
        <table class="stack">
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Retry</th></tr></thead>
          <tbody>${t.data?.items.map(r=>u`<tr>
            <td data-label="When">${L(r.created_at)}</td><td data-label="Event">${r.event_type}</td><td data-label="Status">${r.status}</td>
            <td data-label="Attempts" class="n">${r.attempts}</td>
            <td data-label="Answer">${r.last_status_code??r.last_error??"\u2014"}</td>
            <td data-label="Retry"><button onClick=${()=>a(r.id)} aria-label=${`Retry delivery ${r.id}`}>Retry</button></td></tr>`)}</tbody>
        </table>
        <${N} list=${t} noun="deliveries" />
      <//>
    </section>`}var De=[{id:"usage",label:"Credits",view:Ot},{id:"jobs",label:"Jobs",view:vt},{id:"moderation",label:"Moderation",view:Tt},{id:"storage",label:"Results & chats",view:Ct},{id:"webhooks",label:"Webhooks",view:Rt}];function mn({onKey:e}){let[t,n]=h();return u`
    <form class="panel key" onSubmit=${i=>{i.preventDefault();let o=String(new FormData(i.currentTarget).get("key")??"").trim();_e(o),C("/users/me").then(e,a=>{_e(""),n(P(a))})}}>
      <h2>Your API key</h2>
      <p>Paste the key <code>npm start</code> printed (or your own). It stays in this tab only and is sent in the Authorization header.</p>
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required />
      <button type="submit">Open the console</button>
      <${E} error=${t} />
    </form>`}function pn(){let[e,t]=h(!!ue()),[n,s]=h(location.hash.slice(1)||"usage"),i=De.find(a=>a.id===n)??De[0],o=a=>{s(a),history.replaceState(null,"",`#${a}`)};return u`
    <header class="row spread">
      <h1>Console</h1>
      ${e&&u`<button onClick=${()=>{_e(""),t(!1)}}>Forget key</button>`}
    </header>
    ${e?u`
      <nav aria-label="Screens"><ul class="tabs">${De.map(a=>u`<li>
        <a href=${`#${a.id}`} aria-current=${a.id===i.id?"page":void 0} onClick=${r=>{r.preventDefault(),o(a.id)}}>${a.label}</a></li>`)}</ul></nav>
      <main><${i.view} key=${i.id} /></main>`:u`<main><${mn} onKey=${()=>t(!0)} /></main>`}`}var Lt=document.getElementById("app");if(!Lt)throw new Error("The console page has no #app element");Ge(u`<${pn} />`,Lt);
